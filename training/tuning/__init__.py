"""Tuning: settings chosen on one half of Bio-ID's documents (NIL calibration and operating point, organism weights)."""
