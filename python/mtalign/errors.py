"""mtalign's exceptions and warnings.

Every error is an :class:`MtalignError`, itself a :class:`ValueError`, so existing
``except ValueError`` clauses keep working. :class:`ConfigError` is raised for options that
cannot be used, :class:`InputError` for data that cannot be scored; messages name the
argument and the index (``hyps has 5 items but refs has 4``, ``refs[3] is empty``).

>>> import mtalign
>>> try:
...     mtalign.Rouge(["rougeQ"])
... except mtalign.ConfigError as e:
...     print(str(e)[:24])
unknown variant 'rougeQ'

"""

from mtalign._mtalign import ConfigError, InputError, MtalignError


class MtalignWarning(UserWarning):
    """Something was scored but deserves attention (e.g. a text that produced no tokens)."""


__all__ = ["ConfigError", "InputError", "MtalignError", "MtalignWarning"]
