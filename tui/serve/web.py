"""`kaeru serve web`: the arcade in a browser through textual-serve, with Kaeru's own page.

textual-serve's page asks a font host on the internet for its web font, which fails offline; this
page ships DejaVu Sans Mono (`static/`, its licence beside it) under the family name the
terminal asks for, and loads nothing from outside this server. Each browser tab gets its own
arcade process (`kaeru.tui.serve.web_app`, which draws a header glyph every common font has).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from textual_serve.server import Server

HERE = Path(__file__).resolve().parent
KAERU_STATIC_ROUTE = "/kaeru-static"
# textual-serve's context for its page, before rendering (aiohttp_jinja2 keeps it as __wrapped__)
_base_index: Any = getattr(Server.handle_index, "__wrapped__")  # noqa: B009


class ArcadeWebServer(Server):
    """textual-serve's Server with Kaeru's template and a second static folder (the font)."""

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_static(KAERU_STATIC_ROUTE, HERE / "static", name="kaeru-static")
        return app

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        context: dict[str, Any] = await _base_index(self, request)
        context["kaeru_static_url"] = f"{self.public_url}{KAERU_STATIC_ROUTE}/"
        return context

    async def on_startup(self, app: web.Application) -> None:
        self.console.print(f"Serving the arcade on {self.public_url}  (Ctrl+C to stop)")


def make_server(host: str, port: int, public_url: str | None = None) -> ArcadeWebServer:
    """A server for the arcade on `host:port` (textual-serve runs one process per browser tab)."""
    command = shlex.join([sys.executable, "-m", "kaeru.tui.serve.web_app"])
    server = ArcadeWebServer(
        command,
        host=host,
        port=port,
        title="Kaeru Arcade",
        public_url=public_url,
        templates_path=HERE / "templates",
    )
    return server
