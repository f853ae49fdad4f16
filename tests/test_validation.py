import pytest

from faircompare._validation import check_choice
from faircompare.exceptions import ChoiceError


def test_valid_choice_is_returned_unchanged():
    assert check_choice("adult", ["ricci", "adult"], what="dataset") == "adult"


def test_unknown_choice_names_the_value_a_suggestion_and_every_choice():
    with pytest.raises(ChoiceError) as raised:
        check_choice("adlt", ["ricci", "adult"], what="dataset")
    message = str(raised.value)
    assert "unknown dataset 'adlt'" in message
    assert "did you mean 'adult'" in message
    assert "valid choices: ricci, adult" in message


def test_choice_error_is_a_value_error():
    with pytest.raises(ValueError, match="valid choices: 1, 2"):
        check_choice(3, [1, 2], what="number")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (
            "timeout",
            -5,
            r"timeout must be a number of seconds, more than 0 and at most 2,592,000 "
            r"\(30 days\), got -5",
        ),
        ("timeout", "ten", r"timeout must be a number of seconds.*got 'ten'"),
        ("permutations", 0, r"permutations must be a whole number from 1 to 1,000,000 .*got 0"),
        (
            "splits",
            True,
            "splits must be a whole number from 1 to 1,000 \\(a hundred times the paper's ten\\), got True",
        ),
        ("audits", "yes", "audits must be true or false, got 'yes'"),
    ],
)
def test_every_way_to_make_the_settings_checks_them_in_one_message(field, value, message):
    # issue #68: Options(timeout=-5, permutations=0) was made without a word while the
    # configuration refused the same values; the one settings object checks them however made
    from faircompare.config import PROFILES, BenchmarkConfig, ConfigError

    with pytest.raises(ConfigError, match=message):
        BenchmarkConfig(**{field: value})
    with pytest.raises(ConfigError, match=message):
        PROFILES["quick"].overridden(**{field: value})
