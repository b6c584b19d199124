"""Markdown table rows for the evaluation reports."""
from typing import List


def markdown_row(cells: List[str]) -> str:
    """RETURNS (str): one Markdown table row of the cells."""
    return "| " + " | ".join(cells) + " |"
