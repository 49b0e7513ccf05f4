"""The game API's own behaviour, independent of any one game."""

from dataclasses import dataclass

import pytest

from companion.games.api import IllegalMove, Message, Move, Ruling, ScoreLine, ScoreSheet, Violation


@dataclass(frozen=True)
class Nudge(Move):
    kind = "nudge"
    amount: int

    def to_json(self):
        return {"kind": self.kind, "amount": self.amount}


def line(player, category, points, rule="test.rule"):
    return ScoreLine(player, category, Message.of(category), rule, points)


def test_message_renders_parameters_and_is_immutable():
    message = Message.of("take a tile giving {n} pillars", n=3)
    assert message.render() == "take a tile giving 3 pillars"
    assert message.render("ja") == "take a tile giving 3 pillars"  # untranslated msgid falls back
    assert message == Message.of("take a tile giving {n} pillars", n=3)
    assert hash(message) == hash(Message.of("take a tile giving {n} pillars", n=3))
    with pytest.raises(AttributeError):
        message.msgid = "x"


def test_message_with_broken_translation_placeholder_falls_back(monkeypatch):
    import gettext

    from companion import i18n

    class Broken(gettext.NullTranslations):
        def gettext(self, message):
            return "{nope}"

    monkeypatch.setattr(i18n, "translation", lambda lang: Broken())
    assert Message.of("{n} pillars", n=2).render("ja") == "2 pillars"


def test_ruling_reports_rule_ids_and_acceptance():
    accepted = Ruling(Nudge(1))
    assert accepted.accepted and accepted.rule_ids == ()
    violation = Violation("babylon.build.support", Message.of("needs {n} pillars", n=3), where=("r1c1",))
    rejected = Ruling(Nudge(2), (violation,))
    assert not rejected.accepted
    assert rejected.rule_ids == ("babylon.build.support",)
    data = rejected.to_json()
    assert data["violations"][0]["rule"] == "babylon.build.support"
    assert data["violations"][0]["message"]["text"] == "needs 3 pillars"
    assert "babylon.build.support" in str(IllegalMove(rejected))


def test_score_sheet_totals_are_sums_of_lines():
    sheet = ScoreSheet("g", ("Ann", "Bo"), (line(0, "a", 4), line(0, "b", 6), line(1, "a", 7)))
    assert sheet.totals() == (10, 7)
    assert sheet.leaders() == (0,)
    assert sheet.categories() == ("a", "b")
    assert [entry.points for entry in sheet.lines_for(0)] == [4, 6]
    assert sheet.to_json()["totals"] == [10, 7]


def test_tiebreak_decides_only_on_equal_totals():
    lines = (line(0, "a", 9), line(1, "a", 9), line(2, "a", 3))
    sheet = ScoreSheet("g", ("A", "B", "C"), lines, tiebreak=(-5, -2, 0), tiebreak_rule="t.rule")
    assert sheet.leaders() == (1,)
    assert sheet.tiebreak_decided()
    shared = ScoreSheet("g", ("A", "B"), lines[:2], tiebreak=(-2, -2))
    assert shared.leaders() == (0, 1)  # the victory is shared
    assert not shared.tiebreak_decided()
    clear = ScoreSheet("g", ("A", "B"), (line(0, "a", 10), line(1, "a", 9)), tiebreak=(-9, 0))
    assert clear.leaders() == (0,) and not clear.tiebreak_decided()


def test_unranked_sheet_has_no_leaders():
    sheet = ScoreSheet("g", ("A", "B"), (line(0, "a", 3),), ranked=False)
    assert sheet.leaders() == ()
    assert sheet.to_json()["ranked"] is False


def test_nested_messages_render_in_the_same_language(monkeypatch):
    import gettext

    from companion import i18n

    class Japanese(gettext.NullTranslations):
        def gettext(self, message):
            return {"{piece} is missing": "{piece}がありません", "fountain": "噴水"}.get(message, message)

    monkeypatch.setattr(i18n, "translation", lambda lang: Japanese() if lang == "ja" else gettext.NullTranslations())
    message = Message.of("{piece} is missing", piece=Message.of("fountain"))
    assert message.render("ja") == "噴水がありません"
    assert message.render("en") == "fountain is missing"
    data = message.to_json()
    assert data["params"]["piece"]["msgid"] == "fountain"


def test_violation_of_shares_parameters_between_message_and_fix():
    violation = Violation.of("babylon.store.pillars", "{n} doubles cannot be stored", fix="return {n} to the supply",
                             where=("storage",), n=2)
    assert violation.message.render() == "2 doubles cannot be stored"
    assert violation.fix is not None and violation.fix.render() == "return 2 to the supply"
    assert violation.where == ("storage",)
    assert Violation.of("r", "no fix").fix is None


def test_identifiers_in_sentences_are_named_in_the_language_everywhere_not_only_on_screen():
    # The terminal and the JSON export render through Message.render, as the screen does: a phase or
    # a flower is named in that language, looked up by the parameter's name.
    message = Message.of("Not now: this is the {stage} phase.", stage="store")
    assert "store" not in message.render("ja")
    assert "保管" in message.render("ja")
    assert message.render("en") == "Not now: this is the storage phase."
    player = Message.of("{player} takes a tile", player="pink")  # a player's name is never translated
    assert "pink" in player.render("ja")
