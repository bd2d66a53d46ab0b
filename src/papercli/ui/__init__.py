"""``papers browse``: a full-screen app over the library (Textual), imported by that
command only: ``papers --help`` and ``papers search`` never load Textual.

In: an open index, the taxonomy, the filters given. Out: what the user does there: tags
written, exports written, links opened, ids copied.

    model.py    what the app asks of the library: a query's results, catching up with
                another command's writes (plain functions, no Textual)
    actions.py  tagging, exporting, opening a link (plain functions, no Textual)
    lines.py    a result's row and a paper's details as ``rich.text.Text`` lines
    draw.py     a ``Text`` line drawn as Textual draws it, for the two widgets below
    scrolling.py
                their scrollable size, set with no layout of the screen
    results.py  the results list: a row a paper, one highlighted
    widgets.py  the query box, the detail pane, the status line
    dialogs.py  the tag and export dialogs
    terminal.py the terminal going away: a SIGHUP, or a hang-up read without one
    keys.py     what the list's keys do: mark, tag, export, open, copy, similar
    app.py      the app: layout, moving between the query and the list, and the
                searches run as the query is typed
"""

# Textual draws a changed screen on a clock of TEXTUAL_FPS ticks a second (60 by default),
# and a change that comes just after a tick waits one to two ticks: at 60, a listing found
# after the typed key waited 18-22 ms for its paint at p95; at 240, 6 ms. Textual reads
# the setting when first imported: the ``papers`` program sets it (``cli.main``), unless
# the user has.
SCREEN_FPS = 240
