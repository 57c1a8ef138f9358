"""The wording of the input and parameter checks, written once for both doors.

The Python door fills these templates with str.format (render()); the DuckDB
shell's macros are generated from the same templates (sqlgen.template(), in
sqlrank/shell_door.py), each field then an SQL expression. So a bad input gets
the same sentence from sqlrank.evaluate and from a macro in the shell; only what
the door can know differs (a TREC file's line number, Python's options).
"""

from __future__ import annotations

# ---------------------------------------------------------------- rows of an input (checks, readers)
EMPTY_ID = ("{input}: row {row}: the {canonical} (column '{column}') is empty; "
            "every row needs a query_id, a doc_id and a {value}")
EMPTY_VALUE = "{input}: row {row}: the {value} (column '{column}') is empty; give every row a number"
NAN_VALUE = "{input}: row {row}, column '{column}': the {value} is NaN, which has no order; replace it with a number"
DUPLICATES = ("{input}: duplicate (query_id, doc_id) rows, e.g. {examples}; each document may appear once "
              "per query. {fix}")
DUPLICATE_EXAMPLE = "query '{query_id}' doc '{doc_id}' ({copies} rows)"
# what each door offers against duplicates
DUPLICATES_FIX_PYTHON = "Remove them, or choose a policy: duplicates='first' or 'max' (CLI: --duplicates first|max)"
DUPLICATES_FIX_CLI = "Remove them, or choose a policy: --duplicates first|max"
DUPLICATES_FIX_SHELL = ("Remove them, e.g. keep each pair's best row: QUALIFY row_number() OVER "
                        "(PARTITION BY query_id, doc_id ORDER BY {value} DESC) = 1")
# an id column of another type (a list column's items: the type of its items)
ID_TYPE = "{input}: column '{column}' ({canonical}) has type {type}{mixed}, expected text or whole numbers: {fix}"
ID_TYPE_FLOAT_FIX = "floating-point ids never match text ids (1.0 is not '1'); convert the column to int or str"
ID_TYPE_FIX = "convert the column to str (or int)"
# queries with no relevant judgment (checks/empty_truth.py): the fix after the sentence is each door's own
EMPTY_QUERIES = "{input}: {count} of {queries} queries have no relevant judgment (label >= {level}) ({shown})"
EMPTY_REFUSED = "{which}: refused (empty{assign}'error'); {fix}"
EMPTY_FIX_PYTHON = ("pass empty='zero' to score them 0, empty='one' to score them 1 or empty='skip' to leave them out "
                    "(CLI: --empty zero|one|skip)")
EMPTY_FIX_SHELL = ("pass empty := 'zero' to score them 0, empty := 'one' to score them 1 or empty := 'skip' to leave "
                   "them out")
EMPTY_ONE_REFUSED = ("empty{assign}'one' scores a query with no relevant judgment 1, which {measures} cannot "
                     "take (the `all` row is a sum or a geometric mean there, not a mean of scores); {fix}")
MISSING_COLUMN = "{input}: missing column '{column}' (found {found}); {fix}"
COLUMN_MAP_NOT_STRUCT = ("{option} must be a struct naming the input's column of each canonical one, such as "
                         "{{'query_id': 'qid'}}; got {found}")
COLUMN_MAP_UNKNOWN = ("{option}: unknown column '{key}' (expected one of: {expected}); the keys are the canonical "
                      "names, the values the input's: {option} := {{'query_id': 'qid'}}")
EMPTY_QRELS = "{input}: no rows: the qrels are empty, so nothing can be evaluated; expected rows of query_id, doc_id, relevance"
DISJOINT = ("run '{run_id}': shares no query with the qrels (its {count}, e.g. '{run_query}'; the qrels have e.g. "
            "'{qrels_query}'): it is most likely not a run of these qrels, or its query ids are written otherwise; {fix}")
DISJOINT_FIX_PYTHON = "pass allow_disjoint=True (CLI: --allow-disjoint) to evaluate it anyway"
DISJOINT_FIX_SHELL = "pass validate := false to evaluate it anyway"
MISSING_COLUMN_FIX_SHELL = "map it: {columns_option} := {{'{canonical}': '{name}'}}"

# ---------------------------------------------------------------- lines of a TREC file (readers/trec.py, the shell's reader)
# {where}: the file and, where the door knows it, the line number (file:12)
TREC_FIELDS = "{where}: expected {expected} fields ({example}), found {count}: '{line}'{hint}; fix or remove the line"
TREC_RUN_EXAMPLE = "'301 Q0 FBIS3-10082 1 12.5 myrun' (qid Q0 docno rank score tag)"
TREC_QRELS_EXAMPLE = "'301 0 FBIS3-10082 1' (qid iter docno relevance)"
TREC_SUBTOPIC_QRELS_EXAMPLE = "'51 2 clueweb09-en0000-00-00000 1' (qid subtopic docno relevance)"
TREC_LOOKS_LIKE_QRELS = " (this looks like a qrels line: the qrels come first, then the run)"
TREC_LOOKS_LIKE_RUN = " (this looks like a run line: the qrels come first, then the run)"
TREC_NEEDS_HEADER = " (a CSV/TSV file needs a header line such as query_id,doc_id,score)"
TREC_NAN_SCORE = "{where}: the score is NaN, which has no order, so it cannot be ranked: '{line}'; replace it with a number"
TREC_BAD_SCORE = "{where}: column 5 (score) must be a number, found '{found}': '{line}'; fix the score"
TREC_BAD_LABEL = "{where}: column 4 (relevance) must be an integer label, found '{found}': '{line}'; fix the label"

# ---------------------------------------------------------------- measure parameters (measures.py, the macros)
# ---------------------------------------------------------------- the resampling tests' parameters (compare, the macros)
WHOLE_NUMBER = "{name} must be a whole number >= {low}, got {value}"
AT_MOST = "{name} must be at most {high}, got {value}"
CONFIDENCE = "confidence must be between 0 and 1 (e.g. 0.95), not {value}"

GAIN_MAP_FORM = "{measure}: a gain map is written gains={{label:gain,...}}, e.g. gains={{1:3,2:9}}, got '{value}'"
GAIN_MAP_ENTRY = "{measure}: each entry of a gain map is label:gain with a whole-number label >= 0, got '{entry}'"
GAIN_MAP_TWICE = "{measure}: label {label} is given two gains; give it one"
NOT_A_NUMBER = "{measure}: {parameter} must be a number, got '{value}'"
NOT_FINITE = "{measure}: {parameter} must be a finite number, got '{value}'"
NOT_GREATER = "{measure}: {parameter} must be greater than {minimum}, got '{value}'"
NOT_WITHIN = "{measure}: {parameter} must be from {low} to {high} (both included), got '{value}'"
# the C/W/L measures' scale (sql/23_cwl.sql, sqlrank.cwl_scale_ok, says it in the shell), numbers as %g writes them
GAIN_SCALE = ("{measure}: min_rel must be at least 0 and below max_rel (labels from min_rel to max_rel gain 0 to 1), "
              "got min_rel={low:g}, max_rel={high:g}; give the lowest and the highest label of the judgments' scale")
BAD_CUTOFF = "{measure}: the cutoff must be a whole number >= 1, got '{value}'"
CUTOFF_TOO_LARGE = "{measure}: the cutoff must be at most {maximum}, got '{value}'"
BAD_DEPTH = "depth must be a whole number >= 1, got {value}"

# ---------------------------------------------------------------- measures users define (defined.py, sqlrank.defined_*)
DEFINED_NOT_A_NUMBER = ("{measure}: its expression gave {found} for a ranking of {retrieved} retrieved documents; a "
                        "measure gives a finite number for every query: write a quotient as coalesce(x / NULLIF(y, 0), 0)")
# {policy}: how the door spells the option
DEFINED_AVERAGE = ("{policy} is not defined for {measure}, a measure defined in SQL: its expression gives the value "
                   "of one order, not the expectation over the orderings of tie groups; use another ties policy "
                   "(trec, docid_asc, optimistic, pessimistic, input)")


def render(template: str, **fields) -> str:
    """The message of `template` with its fields filled in (the Python door)."""
    return template.format(**fields)

# ---------------------------------------------------------------- ties='input': the run's own order (checks/order.py, the shell)
# {policy}: how the door spells the option; {order}: where the door took the order from
INPUT_RANK_MISSING = ("{input}: {policy} orders the run by {order}, but {run}query '{query_id}', document '{doc_id}' "
                      "has {found} there; give every document a finite rank, or choose another ties policy")
INPUT_RANK_SHARED = ("{input}: {policy} orders the run by {order}, but {run}query '{query_id}' gives the rank {rank} "
                     "to {count} documents (e.g. '{doc_id}'), which then have no order; give each document of a query "
                     "its own rank, or choose another ties policy (trec orders by score, then doc id)")
