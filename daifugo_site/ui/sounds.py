"""The table's sounds, synthesised here: ``python -m daifugo_site.ui.sounds`` writes them.

Each cue is a few short notes (a sine with a touch of its octave, shaped by a quick attack
and an exponential decay), written as 8-bit unsigned PCM, 11,025 Hz, mono WAV with the
standard library only (``wave``, ``math``). WAV rather than Opus or Ogg: every browser
plays it, and making it needs no encoder on the machine; at this rate and depth a cue is
a few KB (``tests/daifugo_site/ui/test_sounds.py`` holds them to that, and to being exactly
what this module makes). Files rather than WebAudio: the browser caches them under the
static pipeline's hashed names, and the page needs no synthesiser of its own.

The files are committed under ``static/sounds/``; run the module again after changing a
cue. Which cue plays when is the page's business (``static/play/sounds.js``), from what the
server says happened (``data-cues`` on the table's version mark, daifugo_site/play/cues.py).
"""

from __future__ import annotations

import math
import sys
import wave
from pathlib import Path

RATE = 11025
#: Peak level of the mix, out of 1 (8-bit output: loud enough, never clipping).
LEVEL = 0.55

#: cue name -> notes as (start s, frequency Hz, length s, loudness 0..1).
CUES: dict[str, tuple[tuple[float, float, float, float], ...]] = {
    # Your turn: two rising notes, a gentle call.
    "turn": ((0.0, 784.0, 0.16, 0.8), (0.11, 1046.5, 0.24, 0.9)),
    # A play: one short, soft tap.
    "play": ((0.0, 523.3, 0.09, 0.7),),
    # An 8-cut: three quick falling notes, the field swept away.
    "cut": ((0.0, 1318.5, 0.08, 0.8), (0.06, 987.8, 0.08, 0.8), (0.12, 659.3, 0.18, 0.9)),
    # A revolution: a low-to-high run, the order turned over.
    "revolution": (
        (0.0, 261.6, 0.12, 0.8),
        (0.09, 329.6, 0.12, 0.8),
        (0.18, 392.0, 0.12, 0.8),
        (0.27, 523.3, 0.3, 1.0),
    ),
    # The end of a round: a settled three-note cadence.
    "round": ((0.0, 659.3, 0.18, 0.8), (0.16, 523.3, 0.18, 0.8), (0.32, 392.0, 0.4, 1.0)),
}


def samples(notes: tuple[tuple[float, float, float, float], ...]) -> list[float]:
    """The cue as floats in -1..1."""
    end = max(start + length for start, _f, length, _l in notes)
    out = [0.0] * int(end * RATE + 1)
    for start, freq, length, loud in notes:
        first = int(start * RATE)
        for i in range(int(length * RATE)):
            t = i / RATE
            # 5 ms attack (no click), then a decay that is near silence at the note's end.
            envelope = min(1.0, t / 0.005) * math.exp(-5.0 * t / length)
            tone = math.sin(2 * math.pi * freq * t) + 0.25 * math.sin(4 * math.pi * freq * t)
            out[first + i] += loud * envelope * tone / 1.25
    peak = max(1.0, max(abs(s) for s in out))
    return [s / peak for s in out]


def wav_bytes(name: str) -> bytes:
    """The cue ``name`` as the bytes of a WAV file (deterministic: no time stamps)."""
    import io

    frames = bytes(max(0, min(255, round(128 + 127 * LEVEL * s))) for s in samples(CUES[name]))
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)  # 8-bit PCM is unsigned, centred on 128
        out.setframerate(RATE)
        out.writeframes(frames)
    return buffer.getvalue()


def folder() -> Path:
    return Path(__file__).resolve().parents[2] / "static" / "sounds"


def write_all(target: Path | None = None) -> list[Path]:
    target = target or folder()
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name in CUES:
        path = target / f"{name}.wav"
        path.write_bytes(wav_bytes(name))
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else None):
        print(f"{path} {path.stat().st_size} bytes")
