"""Slow, obviously-correct pure-Python oracles of mtalign's metrics, one module per metric.

The tests compare the native scorers with these (with hypothesis where it helps); nothing here
imports mtalign.
"""
