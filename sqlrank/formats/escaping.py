r"""User text (run, query and document ids, baseline names, measure labels) made inert for each output.

One function per place the text reaches, each the only way it gets there:

* terminal: a control or invisible character (newline, tab, ESC, a right-to-left
  override, ...) shown as its Python escape (`\n`, `\x1b`, `\u202e`), so that a
  name stays on its line and cannot recolour or rewrite the screen;
* notice: a line on stderr (`sqlrank: warning: ...`), escaped as for the
  terminal, so that a name cannot start a line of its own (a forged
  `sqlrank: error:`);
* markdown: the terminal's escapes, then every character that ends a cell,
  starts emphasis, code or a link backslash-escaped, and HTML's `<`, `>`, `&` as
  entities (GitHub renders raw HTML);
* latex: the terminal's escapes (a newline would end a `%` comment), then
  every character TeX reads as a command or a group written as text;
* plot_label: the terminal's escapes, then `$` escaped, so that matplotlib
  never reads a name as mathtext.
"""

from __future__ import annotations

_MARKDOWN = str.maketrans({**{c: "\\" + c for c in "\\|*_`[]~#!"}, "<": "&lt;", ">": "&gt;", "&": "&amp;"})
_LATEX = str.maketrans({
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}",
})


def terminal(text) -> str:
    """A control or invisible character as its escape (`\\n`, `\\x1b`); everything else as it is."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def notice(text) -> str:
    """One line of stderr: the terminal's escapes, so that nothing in it starts another line."""
    return terminal(text)


def markdown(text) -> str:
    return terminal(text).translate(_MARKDOWN)


def latex(text) -> str:
    return terminal(text).translate(_LATEX)


def plot_label(text) -> str:
    return terminal(text).replace("$", r"\$")
