"""Names a reader cannot tell apart on screen are refused (NAMES-1), by an experiment file
and by benchmark() alike: a trailing space or a zero-width space is hidden by a table, a page
and a terminal, and an NFC and an NFD "café" (or a full-width "ｋｎｎ") print the same. Before,
three models "knn", "knn " and "knn\\u200b" ran and every output showed three rows "knn"."""

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
        ("fi", '"\\ufb01"'),  # the ligature ﬁ
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
    assert ascii(name) in text  # the name, with its hidden characters visible
    assert "rename" in text


def test_benchmark_refuses_a_decomposed_name_beside_a_precomposed_one():
    models = {"caf\u00e9": DummyClassifier(), "cafe\u0301": DummyClassifier()}
    with pytest.raises(ValueError, match="would be shown alike") as info:
        benchmark(models, {"iris": _data()}, outer_cv=2, n_refits=1, random_state=0)
    assert "'caf\\xe9' and 'cafe\\u0301'" in str(info.value)


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
