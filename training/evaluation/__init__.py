"""Evaluation step: Hits@k of linkers and baselines, the assembled pipeline end to end, organism assignment; reports and figures."""
