"""Names a reader cannot tell apart on screen are refused (NAMES-1), by an experiment file
and by benchmark() alike: a trailing space or a zero-width space is hidden by a table, a page
and a terminal, and an NFC and an NFD "café" (or a full-width "ｋｎｎ") print the same. Before,
three models "knn", "knn " and "knn\\u200b" ran and every output showed three rows "knn"."""

import json
import re
import warnings

import pytest
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier

from sklearn_fair import benchmark
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import load_config

HEAD = """\
[experiment]
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 2
n_refits = 1

[models.knn]
estimator = "sklearn.dummy.DummyClassifier"
"""

# (the second name as a TOML key, as Python text, what the refusal says)
ALIKE = [
    ('"knn "', "knn ", 'models."knn "] starts or ends with white space'),
    ('" knn2"', " knn2", 'models." knn2"] starts or ends with white space'),
    ('"knn\\u200b"', "knn\u200b", 'models."knn\\u200b"] holds U+200B (ZERO WIDTH SPACE)'),
    ('"k\\u00adnn"', "k\u00adnn", "holds U+00AD (SOFT HYPHEN)"),
    ('"\\uff4b\\uff4e\\uff4e"', "\uff4b\uff4e\uff4e", "[models.knn] and [models."),
    # hunt DOC16-2's fix: benchmark refuses a control character, and the runner passed a
    # newline on (it escapes the others): the run ended in a traceback
    ('"k\\nnn"', "k\nnn", 'models."k\\u000ann"] holds a line break'),
]


def _config(tmp_path, *keys):
    text = HEAD + "".join(
        f'\n[models.{key}]\nestimator = "sklearn.dummy.DummyClassifier"\n' for key in keys
    )
    path = tmp_path / "EXPERIMENT.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("key, name, message", ALIKE, ids=[ascii(a[1]) for a in ALIKE])
def test_an_experiment_file_refuses_names_shown_alike(tmp_path, key, name, message):
    with pytest.raises(ExperimentConfigError) as info:
        load_config(_config(tmp_path, key))
    text = str(info.value)
    assert message in text, text
    assert "rename" in text


@pytest.mark.parametrize(
    "first, second",
    [
        ('"caf\\u00e9"', '"cafe\\u0301"'),  # precomposed and decomposed: one word on screen
        ('"k nn"', '"k  nn"'),  # HTML and Markdown collapse the two spaces
        ('"k nn"', '"k\\u00a0nn"'),  # a no-break space prints as a space
        ('"ｋ nn"', '"k nn"'),  # full-width letters
        ('"ｶﾞ"', '"ガ"'),  # half-width katakana and its voicing mark: one letter
    ],
)
def test_two_names_shown_alike_are_refused_naming_both(tmp_path, first, second):
    with pytest.raises(ExperimentConfigError) as info:
        load_config(_config(tmp_path, first, second))
    text = str(info.value)
    assert f"[models.{first}] and [models.{second}] would be shown alike" in text, text


def test_names_a_reader_tells_apart_are_accepted(tmp_path):
    # punctuation, inner spaces and other scripts stay apart: none is refused
    config = load_config(_config(tmp_path, "k-nn", '"k nn"', '"数据"', '"café"', "knn2"))
    assert list(config.models) == ["knn", "k-nn", "k nn", "数据", "café", "knn2"]


def test_the_display_key_is_what_the_screen_shows():
    from sklearn_fair.utils._printing import display_key

    # hand-written forms, independent of unicodedata
    assert display_key("knn\u200b") == "knn"
    assert display_key(" knn \t") == "knn"
    assert display_key("cafe\u0301") == "caf\u00e9"
    assert display_key("\uff4b\uff4e\uff4e") == "knn"
    assert display_key("k \n  nn") == "k nn"
    assert display_key("KNN") == "KNN"


def _data():
    X, y = load_iris(return_X_y=True)
    return X, y


@pytest.mark.parametrize("what", ["models", "datasets"])
@pytest.mark.parametrize("key, name, message", ALIKE, ids=[ascii(a[1]) for a in ALIKE])
def test_benchmark_refuses_names_shown_alike(what, key, name, message):
    names = {"knn": None, name: None}
    models = {n: DummyClassifier() for n in names} if what == "models" else {"p": DummyClassifier()}
    datasets = {n: _data() for n in names} if what == "datasets" else {"iris": _data()}
    with pytest.raises(ValueError) as info:
        benchmark(models, datasets, outer_cv=2, n_refits=1, random_state=0)
    text = str(info.value)
    assert f"The '{what}' parameter of benchmark" in text, text
    from sklearn_fair.utils._printing import quoted_name

    assert quoted_name(name) in text  # the name, with its hidden characters visible
    assert "rename" in text


def test_benchmark_refuses_a_decomposed_name_beside_a_precomposed_one():
    models = {"caf\u00e9": DummyClassifier(), "cafe\u0301": DummyClassifier()}
    with pytest.raises(ValueError, match="would be shown alike") as info:
        benchmark(models, {"iris": _data()}, outer_cv=2, n_refits=1, random_state=0)
    # printed alike, the two are shown with their accents escaped: where they differ
    assert "'caf\\u00e9' and 'cafe\\u0301'" in str(info.value)


def test_benchmark_refuses_a_new_name_shown_alike_a_previous_one():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = benchmark(
            {"knn": DummyClassifier()}, {"iris": _data()}, outer_cv=2, n_refits=1, random_state=0
        )
    with pytest.raises(ValueError, match="'knn' and 'knn\\\\u200b'|U\\+200B"):
        benchmark(
            {"knn\u200b": DummyClassifier()}, {"iris": _data()}, outer_cv=2, n_refits=1,
            random_state=0, previous=first,
        )  # fmt: skip
    with pytest.raises(ValueError, match="would be shown alike"):
        benchmark(
            {"\uff4b\uff4e\uff4e": DummyClassifier()}, {"iris": _data()}, outer_cv=2,
            n_refits=1, random_state=0, previous=first,
        )  # fmt: skip


def test_a_data_set_named_after_its_file_is_held_to_the_same_rule(tmp_path):
    # a [data] table names its data set after the CSV's stem: "x .csv" gave a data set "x "
    rows = "\n".join(f"{i % 7},{i % 3},{i % 2}" for i in range(30))
    (tmp_path / "x .csv").write_text("f1,f2,y\n" + rows + "\n")
    text = HEAD.replace(
        'dataset = "sklearn:iris"', 'dataset = "csv"\npath = "x .csv"\ntarget = "y"'
    )
    path = tmp_path / "EXPERIMENT.toml"
    path.write_text(text)
    with pytest.raises(ExperimentConfigError) as info:
        load_config(path)
    text = str(info.value)
    assert "key 'data.path'" in text and 'named "x " after its file' in text, text
    assert "starts or ends with white space" in text and "[data.NAME]" in text
    # named in a table of its own, it is taken
    named = path.read_text().replace("[data]", '[data."x"]')
    path.write_text(named)
    assert list(load_config(path).datasets) == ["x"]


# names whose zero-width non-joiner or joiner changes the glyphs (REV-2): Persian writes
# U+200C inside words, Devanagari U+200D in a half form, an emoji sequence U+200D
def _toml_key(name):
    return json.dumps(name, ensure_ascii=False)  # TOML's basic strings are JSON's


JOINED = [
    "\u0645\u062f\u0644\u200c\u062e\u0637\u06cc",
    "\u0915\u094d\u200d\u0937",
    "\U0001f469\u200d\U0001f4bb model",
]


def test_benchmark_takes_names_written_with_a_joiner():
    models = {name: DummyClassifier() for name in JOINED}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(models, {JOINED[0]: _data()}, outer_cv=2, n_refits=1, random_state=0)
    assert list(result.models) == JOINED
    assert list(result.datasets) == JOINED[:1]


def test_an_experiment_file_takes_names_written_with_a_joiner(tmp_path):
    keys = [_toml_key(name) for name in JOINED]
    assert list(load_config(_config(tmp_path, *keys)).models) == ["knn", *JOINED]


@pytest.mark.parametrize(
    "name, hidden",
    [
        ("\u0645\u062f\u0644\u200c", "U+200C (ZERO WIDTH NON-JOINER)"),  # at the end
        ("\u200d\u0645\u062f\u0644", "U+200D (ZERO WIDTH JOINER)"),  # at the start
        ("\u0645\u062f \u200c\u0644", "U+200C (ZERO WIDTH NON-JOINER)"),  # beside a space
        ("k\u200b\u200dnn", "U+200B (ZERO WIDTH SPACE)"),  # beside another invisible one
    ],
)
def test_a_joiner_without_a_letter_on_each_side_is_refused(tmp_path, name, hidden):
    with pytest.raises(ValueError, match=f"holds {re.escape(hidden)}"):
        benchmark({name: DummyClassifier()}, {"iris": _data()}, outer_cv=2, n_refits=1)
    with pytest.raises(ExperimentConfigError, match=re.escape(hidden)):
        load_config(_config(tmp_path, _toml_key(name)))


def test_a_name_apart_from_another_only_by_a_joiner_is_shown_alike():
    # between Latin letters a joiner changes nothing on screen: the two names are refused
    models = {"knn": DummyClassifier(), "k\u200dnn": DummyClassifier()}
    with pytest.raises(ValueError, match="would be shown alike") as info:
        benchmark(models, {"iris": _data()}, outer_cv=2, n_refits=1)
    assert "'knn' and 'k\\u200dnn'" in str(info.value)


@pytest.mark.parametrize(
    "first, second",
    [
        ("poly_x2", "poly_x\u00b2"),
        ("SVM-II", "SVM-\u2161"),
        ("fit", "\ufb01t"),
        ("k=1/2", "k=\u00bd"),
    ],
    ids=["superscript", "roman numeral", "ligature", "vulgar fraction"],
)
def test_names_a_reader_tells_apart_by_their_glyphs_are_accepted(tmp_path, first, second):
    # NFKC folded them ("poly_x2" and "poly_x²" were "shown alike (as 'poly_x2')")
    models = {first: DummyClassifier(), second: DummyClassifier()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(models, {"iris": _data()}, outer_cv=2, n_refits=1, random_state=0)
    assert list(result.models) == [first, second]
    config = load_config(_config(tmp_path, _toml_key(first), _toml_key(second)))
    assert list(config.models) == ["knn", first, second]


def test_the_messages_show_letters_as_themselves_and_hidden_characters_escaped(tmp_path):
    name = "\u0645\u062f\u0644\u200c"  # Arabic letters, then a non-joiner at the end
    with pytest.raises(ValueError) as info:
        benchmark({name: DummyClassifier()}, {"iris": _data()}, outer_cv=2, n_refits=1)
    # hand-written: the letters as themselves, the non-joiner as an escape
    assert "Got '\u0645\u062f\u0644\\u200c', which holds U+200C" in str(info.value)
    with pytest.raises(ExperimentConfigError) as info:
        load_config(_config(tmp_path, _toml_key(name)))
    assert '[models."\u0645\u062f\u0644\\u200c"] holds U+200C' in str(info.value)
    models = {"caf\u00e9": DummyClassifier(), "caf\u00e9\u00a0": DummyClassifier()}
    with pytest.raises(ValueError) as info:
        benchmark(models, {"iris": _data()}, outer_cv=2, n_refits=1)
    assert "Got 'caf\u00e9\\u00a0', which starts or ends" in str(info.value)


def test_quoted_name_escapes_only_what_does_not_show():
    from sklearn_fair.utils._printing import quoted_name

    assert quoted_name("caf\u00e9 \u6570\u636e") == "'caf\u00e9 \u6570\u636e'"
    assert quoted_name("a\tb\x1b\u202e\U000e0001") == "'a\\u0009b\\u001b\\u202e\\U000e0001'"
    assert quoted_name('it\'s "x"\\') == "'it\\'s \"x\"\\\\'"
    assert quoted_name('it\'s "x"', quote='"') == '"it\'s \\"x\\""'
