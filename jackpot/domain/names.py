"""People's display names: what a name may contain, and when two names are confusable.

This module is the one place the rule lives (docs/DECISIONS.md D240 and D241, docs/RULES.md
"People's names"). People are told apart by their ids in the register of people; a name is
for people to read, so it must show exactly what it is, and no two active people may have
names that look alike.

**Printable text** (`check_display_name`). A display name is 1 to `MAX_LENGTH` characters
(code points, counted in NFC) of printable text: no control (Cc), format (Cf), private-use
(Co), surrogate (Cs) or unassigned (Cn, noncharacters included) code point, no line or
paragraph separator (Zl, Zp), nothing Default_Ignorable_Code_Point (U+034F, the Hangul
fillers, variation selectors, U+17B4, ...), no space but the plain space U+0020 and no
character that draws as blank though Unicode files it as a letter or symbol (`BLANKS`). No
presentation form of another character (full-width and half-width forms, mathematical
alphanumerics, superscripts, circled and squared letters, Arabic presentation forms: their
decomposition type is in `PRESENTATION_FORMS`): the plain letter is typed instead. Spaces
only between words, one at a time; no combining mark first or straight after a space (it
would sit on nothing, or on the space); at least one letter. A refusal names the first
offending character by code point, name and position (counted from 1 in the text as given).
An accepted name is returned in NFC, the form in which canonically equivalent texts (é as
one character, or as e and U+0301) are one string.

**Confusable** (`skeleton`, `skeletons`, `confusable`). Unicode Technical Standard #39 §4:
X and Y are confusable when skeleton(X) = skeleton(Y), the skeleton being NFD, then the
Default_Ignorable code points removed, then each character replaced by its prototype in
confusables.txt (Cyrillic а by Latin a, m by r n, 𝐃 by D, ...), then NFD again. TR39's data
is case sensitive, and people read "Dana", "dana" and "DANA" as one name, so a name has two
skeletons: TR39's of the name as written (which catches a capital I for a small L), and
TR39's of its NFKC_Casefold (Unicode's caseless form, which also folds compatibility forms
such as ligatures). Two names are confusable when they share a skeleton.

Every character property, the normalisations and the confusables data come from ICU, the
Unicode Consortium's own implementation of TR39 (PyICU over the ICU in the `pyicu-wheels`
wheel): one Unicode version, `UNICODE_VERSION`, for all of them, not Python's unicodedata
(Unicode 14.0 on Python 3.11).
"""

from __future__ import annotations

import icu

from jackpot.errors import ValidationError

# ICU 77.1's, pinned in constraints.txt; tests/unit/test_names.py holds the documents to it
UNICODE_VERSION = "16.0"
# code points, in NFC: the longest full names in use (several given names and two family
# names) fit, and a console line or a hand-pay slip still shows it whole
MAX_LENGTH = 80

# Letters and symbols that draw as nothing: found by searching ICU's character names for
# BLANK, FILLER, NULL and SPACE among the characters not refused otherwise (the test of
# that name repeats the search, so a new Unicode version's are looked at)
BLANKS = frozenset(
    {
        0x2800,  # BRAILLE PATTERN BLANK
        0x303F,  # IDEOGRAPHIC HALF FILL SPACE
        0x13441,  # EGYPTIAN HIEROGLYPH FULL BLANK
        0x13442,  # EGYPTIAN HIEROGLYPH HALF BLANK
        0x16FE4,  # KHITAN SMALL SCRIPT FILLER
        0x1D159,  # MUSICAL SYMBOL NULL NOTEHEAD
        0xFFFC,  # OBJECT REPLACEMENT CHARACTER: a box, or nothing, by the font (issue 38 exam)
        0xFFFD,  # REPLACEMENT CHARACTER: a character lost on the way, not one typed
    }
)
# Decomposition types of characters that are another character drawn a particular way; the
# others (canonical, compat, nobreak) are letters in their own right, such as Thai SARA AM
PRESENTATION_FORMS = frozenset(
    {
        "Circle",
        "Final",
        "Font",
        "Fraction",
        "Initial",
        "Isolated",
        "Medial",
        "Narrow",
        "Small",
        "Square",
        "Sub",
        "Super",
        "Vertical",
        "Wide",
    }
)
_NOT_TEXT = {
    "Cc": "a control character",
    "Cf": "a format character, which shows as nothing or changes the text around it",
    "Co": "a private-use character, which means nothing outside one system",
    "Cs": "half of a surrogate pair, not a character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_MARKS = frozenset({"Mn", "Mc", "Me"})
_SPACE = " "

# ICU's checker and normalisers do not change once made: every thread shares them
_SPOOF = icu.SpoofChecker()
_TR39 = 0  # getSkeleton's type: 0 is TR39's skeleton (ICU's others are deprecated)
_NFC = icu.Normalizer2.getNFCInstance()
_NFKC = icu.Normalizer2.getNFKCInstance()
_NFKC_CASEFOLD = icu.Normalizer2.getNFKCCasefoldInstance()
_SHORT = icu.UPropertyNameChoice.SHORT_PROPERTY_NAME
_LONG = icu.UPropertyNameChoice.LONG_PROPERTY_NAME


def check_display_name(name: str, field: str = "name") -> str:
    """The name in NFC if it is a display name (printable text, spaced, not too long);
    otherwise ValidationError naming `field` and exactly what is wrong."""
    if not isinstance(name, str):
        raise ValidationError(field, "must be a string", "not_a_string")
    if not name:
        raise ValidationError(field, "must not be empty", "empty")
    previous = _SPACE
    for position, char in enumerate(name, start=1):
        _check_drawn(ord(char), position, field)
        _check_placed(char, previous, position, field)
        previous = char
    if previous == _SPACE:
        raise ValidationError(field, "must not end with a space", "spacing")
    if not any(_category(ord(c)).startswith("L") for c in name):
        raise ValidationError(field, "must contain a letter", "no_letter")
    text = str(_NFC.normalize(name))
    if len(text) > MAX_LENGTH:
        raise ValidationError(
            field, f"must be at most {MAX_LENGTH} characters ({len(text)} given)", "too_long"
        )
    return text


def _check_printable(cp: int, position: int, field: str) -> None:
    problem = _not_printable(cp)
    if problem:
        raise ValidationError(
            field,
            f"{describe(cp)} at position {position} is not printable text: {problem}",
            "not_printable",
        )


def _check_drawn(cp: int, position: int, field: str) -> None:
    """A code point of a display name is printable text, and not a presentation form."""
    _check_printable(cp, position, field)
    plain = _presentation_of(cp)
    if plain:
        raise ValidationError(
            field,
            f"{describe(cp)} at position {position} is {plain}: type the plain character",
            "presentation_form",
        )


def _check_placed(char: str, previous: str, position: int, field: str) -> None:
    """A character of a display name after `previous` (a space before the first): no space
    after a space, no combining mark after a space."""
    if char == _SPACE and previous == _SPACE:
        if position == 1:
            raise ValidationError(field, "must not begin with a space", "spacing")
        raise ValidationError(
            field, f"has two spaces at positions {position - 1} and {position}", "spacing"
        )
    if _category(ord(char)) in _MARKS and previous == _SPACE:
        raise ValidationError(
            field,
            f"{describe(ord(char))} at position {position} is a combining mark with no letter "
            "before it",
            "stray_mark",
        )


def check_label(text: str, field: str) -> str:
    """A label people read on a sign or a page (a pool's display name, D280): the text with
    its ends trimmed, of printable text as a display name is (no control, format,
    private-use, unassigned or default-ignorable code point, no space but U+0020), but with
    no rule on spacing, letters or presentation forms (a "$1,000 Must-Hit" is one).
    ValidationError naming `field` otherwise (`not_printable`, or `empty`)."""
    label = text.strip()
    if not label:
        raise ValidationError(field, "must not be empty", "empty")
    lead = len(text) - len(text.lstrip())  # positions count in the text as given
    for position, char in enumerate(label, start=lead + 1):
        _check_printable(ord(char), position, field)
    return label


def skeleton(name: str) -> str:
    """The name's caseless skeleton: TR39's skeleton of its NFKC_Casefold, the same for
    "Dana", "dana", "DANA", "D\\u0430na" (Cyrillic а) and "Ｄａｎａ"."""
    return str(_SPOOF.getSkeleton(_TR39, _NFKC_CASEFOLD.normalize(name)))


def skeletons(name: str) -> frozenset[str]:
    """The keys under which a register finds the names confusable with this one: TR39's
    skeleton of the name as written, its caseless `skeleton`, and TR39's skeleton of its
    upper case. The last catches capitals of other scripts that draw as Latin ones but whose
    small letters do not (Greek Ν and Η, Cyrillic К and М: "DΑΝΑ REYES" is "Dana Reyes" in
    capitals, while its case folding, "dανα reyes", reads "dava reyes"), without making i
    and l one letter as a caseless skeleton of the written skeleton would."""
    upper = str(icu.UnicodeString(str(_NFKC.normalize(name))).toUpper())
    return frozenset(
        {
            str(_SPOOF.getSkeleton(_TR39, name)),
            skeleton(name),
            str(_SPOOF.getSkeleton(_TR39, upper)),
        }
    )


def confusable(a: str, b: str) -> bool:
    """Whether two names look alike: they share a skeleton (`skeletons`)."""
    return not skeletons(a).isdisjoint(skeletons(b))


def describe(cp: int) -> str:
    """A code point as people can look it up: "U+034F COMBINING GRAPHEME JOINER"."""
    name = str(icu.Char.charName(cp))
    return f"U+{cp:04X} {name}" if name else f"U+{cp:04X}"


def _not_printable(cp: int) -> str:
    """Why a code point is not printable text ("" if it is)."""
    category = _category(cp)
    if category == "Cn":
        if icu.Char.hasBinaryProperty(cp, icu.UProperty.NONCHARACTER_CODE_POINT):
            return "a noncharacter, which Unicode keeps out of text"
        return f"unassigned in Unicode {UNICODE_VERSION}"
    if category in _NOT_TEXT:
        return _NOT_TEXT[category]
    return _shows_blank(cp, category)


def _shows_blank(cp: int, category: str) -> str:
    """Why a code point of text shows as nothing or as a blank ("" if it does not)."""
    if icu.Char.hasBinaryProperty(cp, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT):
        return "default-ignorable, it shows as nothing"
    if cp != ord(_SPACE) and (
        category == "Zs" or icu.Char.hasBinaryProperty(cp, icu.UProperty.WHITE_SPACE)
    ):
        return "a space other than the plain space U+0020"
    if cp in BLANKS:
        return "it shows as a blank"
    return ""


def _presentation_of(cp: int) -> str:
    """What a presentation form is a form of ("D (U+0044) in its wide form"), or "". A
    letter drawn as a small capital (ᴅ, ʀ: phonetic letters no name is spelt with, which
    read as the capital's plain letter and which TR39 does not map to it) counts as one."""
    if "LETTER SMALL CAPITAL" in str(icu.Char.charName(cp)):
        plain = str(icu.Char.charName(cp)).rsplit("SMALL CAPITAL ", 1)[1].split(" ")[0]
        return f"{plain} drawn as a small capital"
    kind = str(
        icu.Char.getPropertyValueName(
            icu.UProperty.DECOMPOSITION_TYPE,
            icu.Char.getIntPropertyValue(cp, icu.UProperty.DECOMPOSITION_TYPE),
            _LONG,
        )
    )
    if kind not in PRESENTATION_FORMS:
        return ""
    plain = str(_NFKC.normalize(chr(cp)))
    codes = " ".join(f"U+{ord(c):04X}" for c in plain)
    return f"{plain} ({codes}) in its {kind.lower()} form"


def _category(cp: int) -> str:
    """The code point's general category, such as "Lu" or "Cf"."""
    return str(
        icu.Char.getPropertyValueName(icu.UProperty.GENERAL_CATEGORY, icu.Char.charType(cp), _SHORT)
    )
