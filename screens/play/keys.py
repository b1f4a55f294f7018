"""The play screen's keys, as data: every binding with its id (a player's keymap.toml rebinds
them by id) and a tooltip, and the groups the help screen shows them in."""

from __future__ import annotations

from textual.binding import Binding, BindingType

PLAY_BINDINGS: list[BindingType] = [
    Binding("u,backspace", "undo", "Undo", id="play.undo",
            tooltip="take back your last move"),
    Binding("r", "redo", "Redo", show=False, id="play.redo",
            tooltip="make the move you took back again"),
    Binding("R", "restart", "Restart", show=False, id="play.restart",
            tooltip="back to the start (r redoes the moves)"),
    Binding("i", "hint", "Hint", id="play.hint",
            tooltip="the best next move (with the coach on: how far, which piece, the move)"),
    Binding("m", "play_hint", "Play hint", show=False, id="play.play_hint",
            tooltip="make the hinted move"),
    Binding("s", "solve", "Solve", id="play.solve",
            tooltip="find a solution from here and play it back"),
    Binding("o", "coach", "Coach", show=False, id="play.coach",
            tooltip="coach on/off: the distance to the goal and a verdict on each move"),
    Binding("U", "undo_to_winnable", "Undo to winnable", show=False,
            id="play.undo_to_winnable",
            tooltip="take back moves until the game can be won again"),
    Binding("A", "analysis", "Analysis", show=False, id="play.analysis",
            tooltip="after a win: your game move by move, and its mistakes"),
    Binding("D", "drill", "Drill", show=False, id="play.drill",
            tooltip="practise positions of this puzzle (the small ones)"),
    Binding("n", "new_game", "New", show=False, id="play.new_game",
            tooltip="a new game: a random start, or a layout you type"),
    Binding("C", "copy_game_id", "Copy id", show=False, id="play.copy_id",
            tooltip="copy the game id, to share or replay this start"),
    Binding("T", "toggle_timer", "Timer", show=False, id="play.timer",
            tooltip="show or hide the clock"),
    Binding("full_stop", "details", "Details", show=False, id="play.details",
            tooltip="search details on/off: the algorithm and its own figures"),
    Binding("w", "next_pane", "Switch pane", show=False, id="play.pane",
            tooltip="small terminals: the board, the goal, the search, in turn"),
    Binding("question_mark,f1", "help", "Help", id="play.help", tooltip="this help"),
    Binding("q", "back", "Back", id="play.back",
            tooltip="back to the list of puzzles (your game is saved)"),
    Binding("escape", "escape", "Cancel / back", show=False, id="play.escape",
            tooltip="cancel a search, else leave the playback, else (twice) leave"),
]

# The help screen groups this screen's keys (by binding id).
PLAY_HELP_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Your game", ("play.undo", "play.redo", "play.restart", "play.new_game",
                   "play.copy_id", "play.timer")),
    ("Help from the engine", ("play.hint", "play.play_hint", "play.solve", "play.coach",
                              "play.undo_to_winnable", "play.analysis", "play.drill",
                              "play.details")),
    ("This screen", ("play.pane", "play.help", "play.back", "play.escape")),
)
