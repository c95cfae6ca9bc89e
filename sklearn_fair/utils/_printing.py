"""How numbers and names print: the decimals a metric's numbers need, and the numbers with
them, in five significant digits where fixed decimals would print 309 digits or none; names
in Markdown, escaped, and which names a reader can tell apart. The one owner for the report,
the benchmark table, the runner's Markdown files and the statistics' printed results."""

import math
import re
import unicodedata

import numpy as np

MAX_DECIMALS = 6


def plain(value):
    """``value`` with numpy's arrays and scalars as Python's, so that it prints as written:
    ``pos_label=0``, not ``pos_label=np.int64(0)`` (numpy 2's repr).

    Examples
    --------
    >>> import numpy as np
    >>> repr(plain(np.float64(0.5))), repr(plain([np.int64(1), 2]))
    ('0.5', '[1, 2]')
    """
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    return value


def decimals_for(values, spreads=(), minimum=0):
    """The decimals that show a metric's numbers to the precision their spread allows.

    Two significant digits of the smallest positive spread (a standard deviation of fold
    scores): 0.0196 gives 3 decimals (0.975 +/- 0.020), 1843 gives none (38581 +/- 1843).
    Without a positive spread, four significant digits of the largest of ``values``. A value
    whose spread is 0 (``spreads`` paired with ``values``: every fold scored the same) that
    would round to a whole number it is not gets the decimals that keep it off it: a mean of
    0.9996 does not print as a perfect 1.000. A spread within a float's rounding of its value
    (or, not paired, of the largest value) counts as 0. Between ``minimum`` and 6 decimals.

    Examples
    --------
    >>> decimals_for([0.9754], [0.0196]), decimals_for([38581.1628], [1843.78])
    (3, 0)
    >>> decimals_for([0.5, 0.5], [0.0, 0.0]), decimals_for([123.4], [])
    (4, 1)
    >>> decimals_for([0.9996, 0.922], [0.0, 0.053]), decimals_for([0.99996], [0.0])
    (4, 5)
    >>> decimals_for([0.0108, 0.01077, 2.6e26], [0.00358, 0.00359, 1.77e26])
    4
    """
    values = np.asarray(list(values), dtype=float)
    spreads = np.asarray(list(spreads), dtype=float)
    # equal scores' rounding: none; a spread paired with its value is weighed against that value
    # alone (one diverged model's mean of 1e26 leaves the other models' spreads as they are)
    noise = _noise(values, each=spreads.size == values.size)
    spreads = np.where(spreads > noise, spreads, 0.0)
    positive = spreads[np.isfinite(spreads) & (spreads > 0)]
    if positive.size:
        decimals = 1 - math.floor(math.log10(float(positive.min())))
    else:
        magnitudes = np.abs(values[np.isfinite(values) & (values != 0)])
        if not magnitudes.size:
            return max(4, minimum)
        decimals = 3 - math.floor(math.log10(float(magnitudes.max())))
    if spreads.size == values.size:
        for value in values[(spreads == 0) & np.isfinite(values)]:
            decimals = _off_whole_numbers(float(value), decimals)
    return int(min(max(decimals, minimum), MAX_DECIMALS))


def _noise(values, each=False):
    """The spread that floating-point rounding leaves among equal ``values``: a mean of three
    scores of 0.8 is 0.8000000000000002, and their sem 7.9e-17. With ``each``, that of each
    value on its own (an array; 0 where the value is not finite)."""
    sizes = np.abs(np.asarray(values, dtype=float))
    if each:
        return 1e-12 * np.where(np.isfinite(sizes), sizes, 0.0)
    finite = sizes[np.isfinite(sizes)]
    return 1e-12 * float(finite.max()) if finite.size else 0.0


def _off_whole_numbers(value, decimals):
    """At least ``decimals``, and more (up to :data:`MAX_DECIMALS`) while ``value`` would
    round to a whole number that it is not (beyond a float's rounding)."""
    whole = round(value)
    if abs(value - whole) <= 1e-9 * max(1.0, abs(value)):
        return decimals
    while decimals < MAX_DECIMALS and round(value, decimals) == whole:
        decimals += 1
    return decimals


def pvalue(value, alpha=None, digits=2, floor=0.001):
    """A p-value with ``digits`` significant digits, more where fewer would put it on the other
    side of ``alpha`` (the level it is decided at), or on it: 0.05004 is not "0.05" beside
    "difference not demonstrated"; below ``floor`` (None: none) as "< 0.001".

    Examples
    --------
    >>> pvalue(0.05004), pvalue(0.05004, alpha=0.05), pvalue(0.0123, alpha=0.05)
    ('0.05', '0.05004', '0.012')
    """
    if missing(value):
        return "n/a"
    value = float(value)
    if floor is not None and value < floor:
        return f"< {floor:g}"
    # the level as the reader sees it beside the verdict (1 - 0.9 prints as 0.1)
    level = None if alpha is None else float(f"{alpha:g}")
    for shown in range(digits, 17):
        text = f"{value:.{shown}g}"
        if alpha is None:
            return text
        printed = float(text)
        same_side = (printed <= level) == (value <= alpha)
        if same_side and (printed != level or value == level):
            return text
    return repr(value)


def p_is(value, alpha=None):
    """``value`` as a sentence says it: "p = 0.012", or "p < 0.001" below :func:`pvalue`'s
    floor (not "p = < 0.001").

    Examples
    --------
    >>> p_is(0.0123, alpha=0.05), p_is(2e-7), p_is(float("nan"))
    ('p = 0.012', 'p < 0.001', 'p = n/a')
    """
    text = pvalue(value, alpha)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def missing(value):
    """Whether ``value`` is None, NaN or infinite (printed as "n/a")."""
    if value is None:
        return True
    try:
        return not math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


#: From this magnitude on, numbers print as 1.2346e+20: a float holds about 16 significant
#: digits, and fixed notation printed every one of a score near 1e308's 309 digits.
LARGE = 1e15
#: Below this magnitude, numbers given :data:`MAX_DECIMALS` decimals (their spread asked for
#: more) print as 1.5500e-08: an error of 1e-8 printed 0.000000, and so did its interval.
SMALL = 1e-4


def _scientific(value, decimals):
    size = abs(value)
    return size >= LARGE or (0 < size < SMALL and decimals >= MAX_DECIMALS)


def number(value, decimals):
    """``value`` with ``decimals`` decimals (five significant digits from :data:`LARGE` on,
    one more for each decimal beyond :data:`MAX_DECIMALS`; five below :data:`SMALL` where
    ``decimals`` is :data:`MAX_DECIMALS` or more, or the digits of ``decimals`` decimals where
    they are more); None and NaN as "n/a"; a negative value that rounds to zero prints as 0
    (never ``-0.0000``). :func:`significant_decimals` gives the decimals of a number of digits.

    Examples
    --------
    >>> number(0.97541, 3), number(None, 3), number(7.5e307, 0), number(1.55e-8, 6)
    ('0.975', 'n/a', '7.5000e+307', '1.5500e-08')
    >>> number(1.23456e-5, 10), number(1.23457e-5, 10)
    ('1.23456e-05', '1.23457e-05')
    >>> number(1.0771106e26, 6), number(1.0771106e26, 7), number(1.0771041e26, 7)
    ('1.0771e+26', '1.07711e+26', '1.07710e+26')
    >>> number(-1.4e-05, 4)
    '0.0000'
    """
    if missing(value):
        return "n/a"
    try:
        value = float(value)
    except (TypeError, ValueError):
        return str(value)
    if _scientific(value, decimals):
        # of the mantissa: more where ``decimals`` asks for them; a large value's fixed decimals
        # would all be beyond a float's digits, so those beyond MAX_DECIMALS count instead
        if abs(value) < SMALL:
            digits = max(4, decimals + math.floor(math.log10(abs(value))))
        else:
            digits = 4 + max(0, decimals - MAX_DECIMALS)
        return f"{value:.{digits}e}"
    text = f"{value:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def significant_decimals(value, digits):
    """The decimals with which :func:`number` prints ``value`` (not 0) with ``digits``
    significant digits, or more where it prints more (five from :data:`LARGE` on and below
    :data:`SMALL`).

    Examples
    --------
    >>> significant_decimals(0.0108, 12), significant_decimals(1.23e-5, 12)
    (13, 16)
    >>> number(1.0771106e26, significant_decimals(1.0771106e26, 12))
    '1.07711060000e+26'
    """
    size = abs(float(value))
    if size >= LARGE:
        return MAX_DECIMALS + digits - 5
    return digits - 1 - math.floor(math.log10(size))


def signed(value, decimals):
    """Like :func:`number`, with an explicit sign (+0.012, -3).

    A value that is not 0 but would round to it gets the decimals that show it (up to
    :data:`MAX_DECIMALS`, then five significant digits), so that its sign is printed and true:
    never ``+0.000`` for a negative difference, nor ``-0.000``; 0 itself prints unsigned.

    Examples
    --------
    >>> signed(0.0123, 3), signed(-3, 0), signed(-0.00049, 3), signed(9.1e-05, 3)
    ('+0.012', '-3', '-0.0005', '+0.0001')
    >>> signed(-2e-9, 3), signed(0.0, 3), signed(-0.0, 3)
    ('-2.0000e-09', '0.000', '0.000')
    """
    if missing(value):
        return "n/a"
    value = float(value)
    if value == 0:
        return f"{0.0:.{decimals}f}"
    while decimals < MAX_DECIMALS and round(value, decimals) == 0:
        decimals += 1
    if _scientific(value, decimals) or round(value, decimals) == 0:
        return f"{value:+.4e}"
    return f"{value:+.{decimals}f}"


def interval_decimals(low, high, decimals):
    """The decimals of a difference and its interval ``[low, high]``: at least ``decimals``
    (those of the scores), and two significant digits of the interval's width, so that an
    interval that straddles 0 visibly does (:func:`signed` gives a bound that would still round
    to 0 the digits that show its sign). Up to :data:`MAX_DECIMALS`.

    Examples
    --------
    >>> interval_decimals(-0.00049, 0.00067, 3), interval_decimals(-0.02, 0.05, 3)
    (4, 3)
    """
    width = float(high) - float(low)
    if not (math.isfinite(width) and width > _noise([low, high])):
        return decimals
    return int(min(max(decimals, 1 - math.floor(math.log10(width))), MAX_DECIMALS))


def signed_difference(difference, low, high, decimals):
    """A difference and its interval ``[low, high]`` as printed, ``(difference, "[low,
    high]")``, signed, with :func:`interval_decimals` of them: the one way the verdicts and
    the comparison tables print them.

    Examples
    --------
    >>> signed_difference(9.1e-05, -0.00049, 0.00067, 3)
    ('+0.0001', '[-0.0005, +0.0007]')
    """
    e = interval_decimals(low, high, decimals)
    return signed(difference, e), f"[{signed(low, e)}, {signed(high, e)}]"


#: What a Markdown renderer would read as HTML: a tag, a comment, an autolink (``<`` before a
#: letter, ``/``, ``!`` or ``?``) or an entity (``&name;``, ``&#38;``).
_HTML_START = re.compile(r"<(?=[A-Za-z/!?])|&(?=#?\w+;)")
#: What would mark text up: a backslash, emphasis (``*``, and ``_`` at a word's edge:
#: ``_under_`` is in italics, ``error_score`` is not), code, a link's ``](`` (an interval's
#: brackets alone are left as they are), math (GitHub reads ``$x_1$`` as a formula).
_MARKUP = re.compile(r"([\\*`~$]|(?<![^\W_])_|_(?![^\W_])|\](?=\())")


def markdown_text(text):
    """``text`` as Markdown that renders as itself, on one line: a name's markup escaped (a
    model named ``<img src=x onerror=...>`` prints as its name, never as an image;
    ``prior*copy*`` is not in italics, ``cost $5 vs $10`` is not a formula; a name holding a
    line break cannot start a heading or a table of its own); ``p < 0.001`` is as written.

    Examples
    --------
    >>> print(markdown_text("<b>x</b> and *y* at p < 0.001 & more"))
    \\<b>x\\</b> and \\*y\\* at p < 0.001 & more
    >>> print(markdown_text("_under_, __init__ and error_score"))
    \\_under\\_, \\_\\_init\\_\\_ and error_score
    >>> print(markdown_text("cost $5 vs $10"))
    cost \\$5 vs \\$10
    """
    text = _MARKUP.sub(r"\\\1", " ".join(str(text).splitlines()))
    return _HTML_START.sub(lambda m: "\\<" if m.group() == "<" else "&amp;", text)


def markdown_cell(text):
    """``text`` as one Markdown table cell: :func:`markdown_text` on one line, its pipes
    escaped (they would split the cell).

    Examples
    --------
    >>> print(markdown_cell("a|b *c* <i> [x](y) [0.1, 0.2]"))
    a\\|b \\*c\\* \\<i> [x\\](y) [0.1, 0.2]
    """
    return markdown_text(text).replace("|", "\\|")


#: The zero-width non-joiner and joiner: they change the glyphs of the characters around them
#: (Persian writes U+200C inside words, Indic scripts both, emoji sequences U+200D), and are
#: taken between two visible characters.
_JOINERS = "\u200c\u200d"


def _shows(char):
    """Whether ``char`` shows as a glyph: not white space, nor a control, format, surrogate,
    private-use or unassigned character (category C*)."""
    return not (char.isspace() or unicodedata.category(char).startswith("C"))


def _hidden_format_character(name):
    """The first invisible format character (category Cf) of ``name``, a zero-width
    (non-)joiner between two characters that show (:func:`_shows`) aside; None where it
    holds none."""
    for i, char in enumerate(name):
        if unicodedata.category(char) != "Cf":
            continue
        inner = 0 < i < len(name) - 1
        if not (char in _JOINERS and inner and _shows(name[i - 1]) and _shows(name[i + 1])):
            return char
    return None


#: The code points of Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt,
#: Unicode 15), as inclusive ranges: a renderer that has no glyph for one shows nothing. Beside
#: the format characters (category Cf), it holds the combining grapheme joiner (U+034F), the
#: Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the variation selectors (U+180B-U+180F,
#: U+FE00-U+FE0F, U+E0100-U+E01EF) and code points reserved to be default-ignorable.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip


def _invisible(char):
    """Whether ``char`` shows as nothing: a format character (category Cf) or a
    Default_Ignorable code point (:data:`_DEFAULT_IGNORABLE`)."""
    code = ord(char)
    return unicodedata.category(char) == "Cf" or any(
        low <= code <= high for low, high in _DEFAULT_IGNORABLE
    )


def _unwidened(char):
    """A full-width or half-width form (``ｋ``, ``ｶ``) as the character it is a form of."""
    parts = unicodedata.decomposition(char).split()
    if parts and parts[0] in ("<wide>", "<narrow>"):
        return "".join(chr(int(code, 16)) for code in parts[1:])
    return char


def display_key(name):
    """``name`` as a reader sees it in a table, a page or a terminal: without its invisible
    characters (:func:`_invisible`: the format characters of Unicode category Cf, such as a
    zero-width space, a soft hyphen, a bidi mark and the zero-width (non-)joiner, and the
    other Default_Ignorable code points, such as a combining grapheme joiner, a Hangul filler
    or a variation selector, so that two names apart only by one are alike), its
    full-width and half-width forms as the characters they are forms of (a full-width ``ｋ``
    is a ``k``), NFC-normalised (a decomposed ``é`` is the precomposed one), its runs of white
    space as one space, and stripped (HTML and Markdown collapse them). Superscripts, Roman
    numerals and ligatures are kept: ``x²`` and ``x2``, ``Ⅱ`` and ``II`` are told apart.

    Examples
    --------
    >>> display_key("knn\\u200b"), display_key(" k \\t nn "), display_key("ｋｎｎ")
    ('knn', 'k nn', 'knn')
    >>> display_key("cafe\\u0301") == "caf\\u00e9", display_key("x²")
    (True, 'x²')
    >>> display_key("kn\\u034fn"), display_key("knn\\u3164"), display_key("knn\\ufe0f")
    ('knn', 'knn', 'knn')
    """
    visible = "".join(_unwidened(c) for c in str(name) if not _invisible(c))
    return " ".join(unicodedata.normalize("NFC", visible).split())


def _blank_end(name):
    """The first or last character of ``name`` where it is a letter that shows as a blank
    (an invisible one of category Lo: a Hangul filler), else None. Within a name such a
    letter is a blank a reader sees; at either end, white space a table hides. The other
    invisible characters at an end (a variation selector after an emoji) attach to a
    visible one."""
    for char, neighbour in ((name[:1], name[1:2]), (name[-1:], name[-2:-1])):
        if char and _invisible(char) and unicodedata.category(char) == "Lo":
            if not _is_jamo(neighbour):  # a jamo's filler writes a syllable: "\u1100\u1160"
                return char
    return None


def _is_jamo(char):
    """Whether ``char`` is a Hangul jamo (conjoining or compatibility), which a filler beside
    it completes into a syllable block."""
    code = ord(char) if char and not _invisible(char) else -1  # a filler is none
    return any(
        low <= code <= high
        for low, high in ((0x1100, 0x11FF), (0x3131, 0x318E), (0xA960, 0xA97F), (0xD7B0, 0xD7FF))
    )


def unclear_name(names):
    """``(name, other, why)`` for the first of ``names`` that a reader could not tell from
    the others on screen, or None where each shows as itself and apart.

    A name that starts or ends with white space or a blank letter (a Hangul filler), that
    holds an invisible format character (category Cf; a zero-width non-joiner or joiner,
    U+200C or U+200D, is taken between two visible characters, where it changes their
    glyphs), or that shows as nothing (empty, or blank letters alone) is refused on its own
    (``other`` is None): a table, a page or a terminal does not show them. Two names of one
    :func:`display_key` are shown alike (``other`` is the earlier of them). ``why`` says
    which, in words.

    Examples
    --------
    >>> unclear_name(["knn", "KNN", "k-nn", "poly_x²", "\\u0645\\u06cc\\u200c\\u0631"]) is None
    True
    >>> unclear_name(["knn", "knn "])[::2]
    ('knn ', 'starts or ends with white space (a table or a page hides it)')
    >>> unclear_name(["knn", "knn\\u200b"])[2]
    'holds U+200B (ZERO WIDTH SPACE), an invisible character'
    >>> unclear_name(["knn", "ｋｎｎ"])
    ('ｋｎｎ', 'knn', "would be shown alike (as 'knn')")
    >>> unclear_name(["knn", "knn\u3164"])[2]
    'holds U+3164 (HANGUL FILLER), an invisible character'
    >>> unclear_name(["knn", ""])[2]
    'shows as nothing (a table would print an empty label)'
    """
    shown_as = {}
    for name in names:
        if name != name.strip():
            return name, None, "starts or ends with white space (a table or a page hides it)"
        hidden = _hidden_format_character(name) or _blank_end(name)
        if hidden is not None:
            what = unicodedata.name(hidden, "a format character")
            return name, None, f"holds U+{ord(hidden):04X} ({what}), an invisible character"
        key = display_key(name)
        if not key:
            return name, None, "shows as nothing (a table would print an empty label)"
        other = shown_as.setdefault(key, name)
        if other != name:
            return name, other, f"would be shown alike (as {quoted_name(key)})"
    return None


def quoted_name(name, quote="'", ascii_only=False):
    """``name`` in ``quote`` as a message shows it: its letters as themselves, its hidden
    characters (white space but a plain space, the control and invisible format characters,
    category C*, and the other invisible ones, :func:`_invisible`; with ``ascii_only``, every
    character past ASCII) written as ``\\uXXXX`` escapes, a ``quote`` and a backslash escaped
    with a backslash: as Python reads it, and with ``quote='"'`` as TOML does (a key).

    Examples
    --------
    >>> print(quoted_name("caf\\u00e9 knn\\u200b\\t"), quoted_name('say "hi"', quote='"'))
    'café knn\\u200b\\u0009' "say \\"hi\\""
    """

    def shown(char):
        if char in (quote, "\\"):
            return "\\" + char
        if char == " " or (
            _shows(char) and not _invisible(char) and not (ascii_only and ord(char) > 0x7E)
        ):
            return char
        code = ord(char)
        return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"

    return quote + "".join(shown(c) for c in str(name)) + quote


def quoted_names(names, quote="'"):
    """Each of ``names`` by :func:`quoted_name`; where two would print the same (a
    precomposed and a decomposed ``"café"``), each with every character past ASCII escaped,
    so that a message shows where they differ.

    Examples
    --------
    >>> print(*quoted_names(["caf\\u00e9", "\\uff4b"]))
    'café' 'ｋ'
    >>> print(*quoted_names(["caf\\u00e9", "cafe\\u0301"]))
    'caf\\u00e9' 'cafe\\u0301'
    """
    shown = [quoted_name(name, quote) for name in names]
    if len({unicodedata.normalize("NFC", text) for text in shown}) < len(shown):
        shown = [quoted_name(name, quote, ascii_only=True) for name in names]
    return shown


#: What would make a list of names joined by ", " misread: a name holding a comma or a quote,
#: starting or ending with white space, or empty.
_MISREAD_IN_LIST = re.compile(r"[,'\"]|^\s|\s$|^$")


def name_list(names):
    """``names`` as one text, joined by ``", "``: each as it is, or each as its ``repr``
    where any would be misread so (one holding a comma or a quote, one starting or ending
    with white space, an empty one), so that the list counts and names them as they are.

    Examples
    --------
    >>> name_list(["iris", "wine"]), name_list(["iris, wine", "digits"])
    ('iris, wine', "'iris, wine', 'digits'")
    """
    names = [str(name) for name in names]
    if any(_MISREAD_IN_LIST.search(name) for name in names):
        names = [repr(name) for name in names]
    return ", ".join(names)


def display_width(text):
    """The columns ``text`` takes in a terminal: two for a wide East Asian character, none
    for a combining one (what wcwidth counts).

    Examples
    --------
    >>> display_width("数据"), display_width("e\\u0301"), display_width("ab")
    (4, 1, 2)
    """
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def text_table(rows, rule=False):
    """``rows`` (sequences of text, the header first) as the lines of a plain-text table:
    each cell on one line, padded to its column's display width (:func:`display_width`), so
    that a wide or accented name leaves its numbers under their header; ``rule``: a line of
    dashes under the header.

    Examples
    --------
    >>> print("\\n".join(text_table([("model", "score"), ("数据", "0.9")], rule=True)))
    model  score
    -----  -----
    数据   0.9
    """
    cells = [[" ".join(str(cell).splitlines()) for cell in row] for row in rows]
    widths = [max(display_width(row[i]) for row in cells) for i in range(len(cells[0]))]
    lines = [
        "  ".join(c + " " * (w - display_width(c)) for c, w in zip(row, widths)).rstrip()
        for row in cells
    ]
    if rule:
        lines.insert(1, "  ".join("-" * width for width in widths))
    return lines
