"""`python -m sqlrank`: the same command line as the `sqlrank` console script."""

from .cli import main

if __name__ == "__main__":
    main()
