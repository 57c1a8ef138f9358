"""The output formats, one module each: a Result (or any Arrow table) in, the bytes of the format out.

A renderer returns its output as parts (bytes, or Arrow buffers that are written
without a copy), in order; `sqlrank.export` registers every renderer under its
format's name and file extensions, and writes the parts where they are asked to
go. The renderers read a Result through its public methods and never import
sqlrank.result, so that the Result can show itself (`print(result)`) with the
table renderer.

What every format shares sits here: how a value is shown and how text columns
are aligned.
"""

from __future__ import annotations

from .escaping import terminal


def summed(measure) -> bool:
    """Whether the measure is a count, summed rather than averaged in the `all` row."""
    return measure.definition.aggregate == "sum"


def number(value: float, whole: bool = False) -> str:
    """4 decimals, as trec_eval prints; a count (`whole`) that is a whole number without them."""
    if whole and float(value).is_integer():
        return str(int(value))
    return f"{value:.4f}"


def shown(result, measure_name: str, value: float) -> str:
    """A value of a Result as the people-facing formats print it; z-scores (trec_eval -Z) all with 4 decimals."""
    return number(value, summed(result.measure(measure_name)) and not result.report.zscores)


# what breaks a line format's lines: the trec layout refuses it in an id, the table shows it escaped
LINE_BREAKERS = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def escaped(text: str) -> str:
    """Text for the aligned table: a control character shown as its escape (\\t, \\n, \\x1b)."""
    return terminal(text)


def cell(value) -> str:
    """Any value of an Arrow table as text; SQL's NULL as NULL."""
    return "NULL" if value is None else str(value)


def widths(lines: list[list[str]]) -> list[int]:
    """The width of each column: its widest cell."""
    return [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]


def pad(line: list[str], column_widths: list[int], right: list[bool]) -> list[str]:
    """One line's cells padded to their column's width: text left, numbers (`right`) right."""
    return [text.rjust(width) if flush_right else text.ljust(width)
            for text, width, flush_right in zip(line, column_widths, right)]


def align(lines: list[list[str]], right: list[bool]) -> str:
    """Columns padded to their widest cell, a rule under the header."""
    column_widths = widths(lines)
    out = ["  ".join(pad(line, column_widths, right)).rstrip() for line in lines]
    out.insert(1, "  ".join("-" * width for width in column_widths))
    return "\n".join(out)


def numeric(table) -> list[bool]:
    """Which columns of an Arrow table hold numbers (shown flush right)."""
    import pyarrow as pa

    return [pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t) for t in table.schema.types]
