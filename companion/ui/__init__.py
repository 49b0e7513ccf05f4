"""The touchscreen: a Kivy kiosk app driven by the referee's event feed.

Only `app`, `screens`, `widgets`, `fonts` (its registration part) and `screenshots` import Kivy; the
feed, the protocol the referee implements, the session model and the set-up facts are plain Python so
they can be tested without a display.
"""
