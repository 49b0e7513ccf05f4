"""`python -m companion.ui [--lang ja] [--size 800x480] [--script]`: the touchscreen on the fake
referee, for working on the screens without a camera, a table or a rules engine session.

--script plays a short scripted game (moves, a violation, a question, the end) every few seconds.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.ui", description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="en", help="en, ja or zh_TW")
    parser.add_argument("--size", default="800x480", help="window size WIDTHxHEIGHT (default: the 7-inch display)")
    parser.add_argument("--fullscreen", action="store_true")
    parser.add_argument("--script", action="store_true", help="play a scripted game on the fake referee")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size: expected WIDTHxHEIGHT such as 800x480, got {args.size!r}")
    from .kivy_env import prepare

    prepare(width, height, args.fullscreen)
    from kivy.clock import Clock

    from .app import CompanionApp
    from .fake import FakeReferee

    fake = FakeReferee()
    app = CompanionApp(fake, fake.feed, lang=args.lang)
    if args.script:
        steps = iter([fake.play_move, fake.find_violation, fake.play_move, fake.ask, fake.play_move, fake.end_game])

        def next_step(_dt):
            step = next(steps, None)
            if step is None:
                return False  # unschedules the interval
            step()
            return True

        Clock.schedule_interval(next_step, 4.0)
    app.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
