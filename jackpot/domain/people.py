"""People, not strings: when two names are the same person.

A control that compares people (two-person approval, a witness who is not the payer) must
not be passed by a name typed differently: `"Dana "`, `"dana"`, `"Dana\\u200b"` (a zero-width
space) and `"Ｄａｎａ"` (full-width letters) are all Dana. `person_of` gives the form two
names are compared in: Unicode NFKC (compatibility forms such as full-width letters become
the plain ones), case folded, with every white space and every format character (Unicode
category Cf: zero-width spaces and joiners, the byte-order mark, direction marks) removed.
"""

from __future__ import annotations

import unicodedata


def person_of(name: str) -> str:
    """The form in which two names of the same person are equal ("" for no name at all)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    # NFKC again: case folding can produce characters that compose differently
    folded = unicodedata.normalize("NFKC", folded)
    return "".join(c for c in folded if not c.isspace() and unicodedata.category(c) != "Cf")


def same_person(a: str, b: str) -> bool:
    """Whether two names, both given, name the same person."""
    pa, pb = person_of(a), person_of(b)
    return bool(pa) and pa == pb
