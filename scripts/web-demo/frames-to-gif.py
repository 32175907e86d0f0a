#!/usr/bin/env python3
"""Joins the frames that `check.mjs --capture DIR` recorded into an animated GIF.

    scripts/web-demo/frames-to-gif.py DIR OUT.gif [--width 400] [--colours 64]

Each frame shows for as long as it did in the page (from the times in DIR/frames.json), the
whole loops forever; frames are scaled to `--width`, each with a palette of its own of
`--colours` colours. Needs Pillow.
"""

import argparse
import json
import sys
from pathlib import Path

from PIL import Image


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("frames", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--width", type=int, default=400)
    parser.add_argument("--colours", type=int, default=64)
    args = parser.parse_args()
    listed = json.loads((args.frames / "frames.json").read_text())
    if len(listed) < 10:
        print(f"frames-to-gif: only {len(listed)} frames in {args.frames}", file=sys.stderr)
        return 1
    images, durations = [], []
    for frame, following in zip(listed, listed[1:] + [None]):
        image = Image.open(args.frames / frame["file"]).convert("RGB")
        height = round(image.height * args.width / image.width)
        images.append(image.resize((args.width, height), Image.LANCZOS))
        shown = (following["time"] - frame["time"]) if following else 1.0
        durations.append(max(20, round(shown * 1000)))
    frames = [image.quantize(colors=args.colours) for image in images]
    frames[0].save(args.out, save_all=True, append_images=frames[1:], duration=durations,
                   loop=0, optimize=True)
    seconds = sum(durations) / 1000
    size = args.out.stat().st_size // 1024
    print(f"frames-to-gif: {len(frames)} frames, {seconds:.1f} s, {size} KiB in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
