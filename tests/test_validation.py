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
