"""Listing the datasets needs no data: issue #65 (``list datasets`` without a mirror fetched
ACSIncome, and failed offline)."""

import json
import urllib.request

from faircompare import cli
from faircompare.datasets import at_hand
from faircompare.datasets.builtin import BUILTIN
from faircompare.datasets.fetch import MIRROR_ENV


def test_list_datasets_offline_lists_every_dataset_from_its_spec(tmp_path, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(urllib.request, "urlopen", lambda *args, **kwargs: calls.append(args))
    monkeypatch.delenv(MIRROR_ENV, raising=False)
    cli.main(["list", "datasets", "--json", "--cache", str(tmp_path / "cache")])
    listed = {d["name"]: d for d in json.loads(capsys.readouterr().out)}
    assert calls == [] and list(listed) == list(BUILTIN)
    assert all(d["rows"] is None for d in listed.values())
    assert listed["adult"]["sensitive"]["race-sex"] == {"privileged": "White-Male"}
    cli.main(["list", "datasets", "--cache", str(tmp_path / "cache")])
    out = capsys.readouterr().out
    assert "ricci not fetched" in out and "Race (W; ?)" in out
    assert out.splitlines()[-1].startswith(
        "not fetched (listing uses no network): faircompare fetch-data --dataset ricci "
    )


def test_a_dataset_is_at_hand_in_the_cache_or_the_mirror_by_name(tmp_path):
    spec = BUILTIN["ricci"]
    cache, mirror = tmp_path / "cache", tmp_path / "mirror"
    mirror.mkdir()
    assert not at_hand(spec, cache=cache, mirror=mirror)
    (mirror / spec.file).write_text("a,b\n")
    assert at_hand(spec, cache=cache, mirror=mirror)
