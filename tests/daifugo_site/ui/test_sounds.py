"""The table's sound files: made by daifugo_site/ui/sounds.py, small, and exactly what it
makes (so the committed files cannot drift from their generator)."""

from __future__ import annotations

import io
import wave

import pytest

from daifugo_site.play import cues
from daifugo_site.ui import sounds


@pytest.mark.parametrize("name", sorted(sounds.CUES))
def test_each_committed_file_is_what_the_generator_makes(name: str) -> None:
    path = sounds.folder() / f"{name}.wav"
    assert path.read_bytes() == sounds.wav_bytes(name), "run python -m daifugo_site.ui.sounds"


@pytest.mark.parametrize("name", sorted(sounds.CUES))
def test_each_file_is_a_short_small_mono_wav(name: str) -> None:
    data = sounds.wav_bytes(name)
    assert 500 < len(data) < 10_000
    with wave.open(io.BytesIO(data)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 1, 11025)
        assert w.getnframes() / w.getframerate() < 1.0
        frames = w.readframes(w.getnframes())
    # Audible (not silence) and never clipped at either end of the 8-bit range.
    assert max(frames) - min(frames) > 60
    assert 0 < min(frames) and max(frames) < 255


def test_every_cue_the_server_names_has_a_file() -> None:
    assert set(cues.ORDER) == set(sounds.CUES)


def test_the_generator_writes_them_where_asked(tmp_path) -> None:
    written = sounds.write_all(tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{n}.wav" for n in sounds.CUES)
