"""`kaeru serve web`: the arcade in a browser, textual-serve behind an origin check and a cap.

- `server`: the server (textual-serve's process-opening method overridden), its settings and
  the visitors' environment; `tab`: one tab's arcade run in-process; `fork`: a tab's arcade
  forked from the warm parent onto three pipes. `static/`, `templates/`: the page and its font.
"""
