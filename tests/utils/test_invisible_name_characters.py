"""Names apart only by an invisible character that is not a format character (hunt DOC16,
DOC16-2) are refused as shown alike, by benchmark() and by an experiment file: Unicode's
Default_Ignorable code points (a combining grapheme joiner U+034F, the Hangul fillers U+115F,
U+1160, U+3164 and U+FFA0, the variation selectors) show as nothing, and the NAMES-1 rule
dropped only category Cf. Before, ``benchmark`` ran "knn" and "kn\\u034fn", and a terminal
and a browser showed two rows "knn"."""

import unicodedata

import pytest
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier

from sklearn_fair import benchmark
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import load_config
from sklearn_fair.utils._printing import display_key, quoted_name, unclear_name

# Default_Ignorable code points outside category Cf, from Unicode's DerivedCoreProperties.txt
# (character, its category, its name): none is a format character, each shows as nothing
IGNORABLE = [
    ("\u034f", "Mn", "COMBINING GRAPHEME JOINER"),
    ("\u115f", "Lo", "HANGUL CHOSEONG FILLER"),
    ("\u1160", "Lo", "HANGUL JUNGSEONG FILLER"),
    ("\u17b4", "Mn", "KHMER VOWEL INHERENT AQ"),
    ("\u180b", "Mn", "MONGOLIAN FREE VARIATION SELECTOR ONE"),
    ("\u3164", "Lo", "HANGUL FILLER"),
    ("\ufe00", "Mn", "VARIATION SELECTOR-1"),
    ("\ufe0f", "Mn", "VARIATION SELECTOR-16"),
    ("\uffa0", "Lo", "HALFWIDTH HANGUL FILLER"),
    ("\U000e0100", "Mn", "VARIATION SELECTOR-17"),
]
IDS = [f"U+{ord(c):04X}" for c, _, _ in IGNORABLE]
X, y = load_iris(return_X_y=True)


@pytest.mark.parametrize("char, category, name", IGNORABLE, ids=IDS)
def test_a_default_ignorable_character_makes_names_alike(char, category, name):
    assert (unicodedata.category(char), unicodedata.name(char)) == (category, name)
    for other in (f"kn{char}n", f"knn{char}"):
        assert display_key(other) == "knn"
        # the message shows where they differ
        assert quoted_name(other).count("\\u") + quoted_name(other).count("\\U") == 1
    assert unclear_name(["knn", f"kn{char}n"]) == (
        f"kn{char}n",
        "knn",
        "would be shown alike (as 'knn')",
    )
    # at the end of a name: a blank letter (a Hangul filler) is refused as white space would
    # be, on its own; a mark attaches to the letter before it, and the name is one "knn"'s
    why = unclear_name(["knn", f"knn{char}"])
    if category == "Lo":
        assert why == (f"knn{char}", None, f"holds U+{ord(char):04X} ({name}), an invisible "
                       "character")  # fmt: skip
        assert unclear_name([f"knn{char}"]) == why
    else:
        assert why == (f"knn{char}", "knn", "would be shown alike (as 'knn')")


@pytest.mark.parametrize("name", ["", "\u3164", "\u115f\u1160", "\u3164knn", "model\uffa0"])
def test_benchmark_refuses_a_name_that_shows_blank_alone(name):
    # hunt DOC17, DOC17-2: each was run alone, its row in table() printed with a blank label
    with pytest.raises(ValueError, match="must have names that a table shows apart") as info:
        benchmark({name: DummyClassifier(), "lr": DummyClassifier()}, {"iris": (X, y)},
                  outer_cv=2, n_refits=1, random_state=0)  # fmt: skip
    assert "shows as nothing" in str(info.value) or "an invisible character" in str(info.value)


def test_visible_characters_stay_apart():
    # a braille blank, a Cyrillic letter, a superscript and a case: each shows as a glyph
    names = ["knn", "knn\u2800", "k\u043fn", "knn\u00b2", "KNN", "\u2764\ufe0f"]
    assert unclear_name(names) is None
    assert display_key("\u2764\ufe0f") == "\u2764"


@pytest.mark.parametrize("char", ["\u034f", "\u3164"], ids=["U+034F", "U+3164"])
@pytest.mark.parametrize("what", ["models", "datasets"])
def test_benchmark_refuses_names_apart_by_an_ignorable_character(char, what):
    names = ["knn", f"kn{char}n"]
    models = {name: DummyClassifier() for name in names}
    datasets = {name: (X, y) for name in names}
    if what == "models":
        datasets = {"iris": (X, y)}
    else:
        models = {"prior": DummyClassifier()}
    with pytest.raises(ValueError) as info:
        benchmark(models, datasets, outer_cv=2, n_refits=1, random_state=0)
    assert f"The '{what}' parameter of benchmark must have names that a table shows apart" in str(
        info.value
    )
    assert f"Got 'knn' and 'kn\\u{ord(char):04x}n', which would be shown alike" in str(info.value)


@pytest.mark.parametrize("key", ['"kn\\u034fn"', '"kn\\u3164n"', '"knn\\ufe0f"'])
def test_an_experiment_file_refuses_names_apart_by_an_ignorable_character(tmp_path, key):
    path = tmp_path / "EXPERIMENT.toml"
    path.write_text(
        '[experiment]\nprogress = false\n\n[data]\ndataset = "sklearn:iris"\n\n'
        "[protocol]\nouter_cv = 2\nn_refits = 1\n\n"
        '[models.knn]\nestimator = "sklearn.dummy.DummyClassifier"\n\n'
        f'[models.{key}]\nestimator = "sklearn.dummy.DummyClassifier"\n',
        encoding="utf-8",
    )
    with pytest.raises(ExperimentConfigError) as info:
        load_config(path)
    assert f"[models.knn] and [models.{key}] would be shown alike" in str(info.value)


@pytest.mark.parametrize("name", ["\u1100\u1160", "\u115f\u1161", "\u3131\u3164"])
def test_a_filler_beside_a_jamo_writes_a_syllable_and_is_taken(name):
    # review41 REV-4: a lone initial consonant is written with a filler after it
    assert unclear_name(["knn", name]) is None


def test_fillers_after_fillers_are_still_blank():
    assert unclear_name(["knn\u3164\u3164"])[2].startswith("holds U+3164")
