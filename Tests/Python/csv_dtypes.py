#!/usr/bin/env python3
"""Reads every CSV report under the given run folders with pandas, as a user's notebook would, and fails
when a column that holds numbers does not come out numeric (a stray unit, a thousands separator, a
placeholder such as "-" or "n/a" in a number column), when a file has no header, or when a text column
is not one we know.

Usage: csv_dtypes.py RUN_FOLDER...
Exit 0: all good; 1: a problem, listed on stderr; 2: no folder or no CSV file given; 3: pandas is missing.
"""
import pathlib
import sys

try:
    import pandas
except ImportError:
    print("csv_dtypes: pandas is not installed (scripts/install-deps --test installs python3-pandas)", file=sys.stderr)
    sys.exit(3)

# Columns that hold words or timestamps; every other column must be numeric.
TEXT_COLUMNS = {
    "metric", "widget", "unit", "per", "subject_kind", "statistic", "ci_method", "time", "utc", "cause",
    "outcome", "component", "channel", "reason", "target", "priority", "activity", "ended_by", "bin",
    "kind", "subject", "detail",  # trace.csv
    "point_label",  # a sweep's point names (sweep.csv, sweep_summary.csv, sweep_baseline.csv, sweep-points.csv)
    "status", "infeasible_on",  # selection.csv
}
# selection.csv's words about each constraint: constraint1_metric, constraint1_feasible ...
CONSTRAINT_TEXT = ("_metric", "_widget", "_unit", "_feasible")


def check(path: pathlib.Path) -> list[str]:
    problems = []
    header = path.read_text().split("\n", 1)[0]
    if not header:
        return [f"{path}: no header row"]
    frame = pandas.read_csv(path, keep_default_na=True, na_values=[""])
    if frame.empty:
        return problems  # the header alone: nothing to type
    for column in frame.columns:
        # Words, and a sweep's swept keys as written in the scenario (`widgets[news].timeline.after`: 15m);
        # their numbers in base units (`..._s`, `..._bytes`) must be numeric.
        swept_key = ("." in column or "[" in column) and not column.endswith(("_s", "_bytes"))
        constraint_text = column.startswith("constraint") and column.endswith(CONSTRAINT_TEXT)
        if column in TEXT_COLUMNS or swept_key or constraint_text:
            continue
        if not pandas.api.types.is_numeric_dtype(frame[column]):
            bad = frame[column][pandas.to_numeric(frame[column], errors="coerce").isna() & frame[column].notna()]
            problems.append(f"{path}: column {column!r} is not numeric (e.g. {bad.iloc[0]!r})")
    return problems


def main(folders: list[str]) -> int:
    problems = []
    files = 0
    for folder in folders:
        for path in sorted(pathlib.Path(folder).glob("*.csv")):
            files += 1
            problems += check(path)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"csv_dtypes: {files} files in {len(folders)} folders, {len(problems)} problems")
    if files == 0:
        return 2
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
