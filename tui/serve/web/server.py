"""`kaeru serve web`: the arcade in a browser through textual-serve, with Kaeru's own page.

textual-serve's page asks a font host on the internet for its web font, which fails offline; this
page ships DejaVu Sans Mono (`static/`, its licence beside it) under the family name the
terminal asks for, and loads nothing from outside this server. Each browser tab gets its own
arcade process (`kaeru.tui.serve.web.tab`, which draws a header glyph every common font has):
forked from the server's warm parent on pipes (`web_fork`, the default `--process-model fork`,
as `kaeru serve ssh` forks its arcades), or a fresh Python per tab as textual-serve starts it
(`--process-model spawn`). Either way the tabs search in the server's one search pool and read
the catalogue survey it runs once (`shared_processes`).

The trust model: the web mode has no login, and every tab plays with the serving user's saves.
What it guards is the server, not the visitors from each other:
- the WebSocket that drives an arcade is accepted only from this server's own page (its
  `Origin`, or one of `--allow-origin`): another site a visitor has open cannot play for them;
- at most `--max-sessions` tabs at once, each arcade with `--memory-limit` of address space,
  windows drawn at most `limits.MAX_COLUMNS` × `limits.MAX_ROWS`;
- a visitor cannot clear the shared table cache or change the settings (they are the serving
  user's): the arcades run as a shared, served arcade (`visitor_environment`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import shlex
import socket
import sys
from asyncio.subprocess import Process
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from kaeru.tui.serve.processes.forked_arcade import WarmParentError
from kaeru.tui.serve.processes.limits import SessionLimits, clamp_size
from kaeru.tui.serve.processes.shared_processes import SharedProcesses
from kaeru.tui.serve.served import SERVED_ENV
from kaeru.tui.serve.ssh.pty_session import SERVED_ANIMATIONS, limit_table_builds
from kaeru.tui.serve.web.fork import QUIT_GRACE_SECONDS, PipedArcade, fork_tab

HERE = Path(__file__).resolve().parent
KAERU_STATIC_ROUTE = "/kaeru-static"
PLAYER_ENV = "KAERU_PLAYER"  # set: the table cache is shared (engine.catalogue.cache_folder)
WEB_PLAYER = "web-visitor"
# textual-serve's context for its page, before rendering (aiohttp_jinja2 keeps it as __wrapped__)
_base_index: Any = getattr(Server.handle_index, "__wrapped__")  # noqa: B009
log = logging.getLogger("kaeru.serve")


@dataclass
class WebSettings:
    """What the web server's shared processes are started with (`SharedSettings`)."""

    root: Path
    cache_dir: Path
    limits: SessionLimits = field(default_factory=SessionLimits)
    command: list[str] | None = None
    process_model: str = "fork"
    search_workers: int = 0


def visitor_environment(base: dict[str, str], memory_mb: int) -> dict[str, str]:
    """A visitor's arcade: served and sharing the cache (no clearing it, no server settings),
    its search under the memory limit, no table build the limit cannot hold."""
    env = dict(base)
    env[SERVED_ENV] = "web"
    env[PLAYER_ENV] = WEB_PLAYER
    env.setdefault("TEXTUAL_ANIMATIONS", SERVED_ANIMATIONS)
    if memory_mb:
        env["KAERU_SEARCH_MEMORY_MB"] = str(memory_mb)
    return limit_table_builds(env, memory_mb)


def own_origins(host: str, port: int, public_url: str | None) -> set[str]:
    """The origins of this server's own page: the public URL's, and host:port (on loopback, by
    every loopback name; on every address, by this machine's names). Not the request's Host: a
    page of another site whose name is made to point here (DNS rebinding) would match it."""
    origins = {f"http://{host}:{port}"}
    try:
        address = ipaddress.ip_address(host)
        loopback, anywhere = address.is_loopback, address.is_unspecified
    except ValueError:
        loopback, anywhere = host == "localhost", False
    if loopback:
        origins |= {f"http://{name}:{port}" for name in ("127.0.0.1", "localhost", "[::1]")}
    if anywhere:  # 0.0.0.0: browsers come by this machine's name (or --public-url)
        names = {socket.gethostname(), socket.getfqdn()} - {""}
        origins |= {f"http://{name}:{port}" for name in names}
    if public_url:
        parts = urlsplit(public_url)
        origins.add(f"{parts.scheme}://{parts.netloc}")
    return origins


class ArcadeService(AppService):
    """textual-serve's AppService: the visitor's environment, window sizes clamped; the tab's
    arcade forked from the warm parent when the server has one."""

    memory_mb = 0
    shared: SharedProcesses | None = None
    forked: set[PipedArcade] | None = None  # the server's live forked tabs
    _piped: PipedArcade | None = None

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        width, height = clamp_size(width, height)
        env = super()._build_environment(width, height)
        if self.shared is not None:
            env.update(self.shared.session_env())  # the search pool, the survey's results
        return visitor_environment(env, self.memory_mb)

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        warm = self.shared.warm if self.shared is not None else None
        if warm is None:
            return await super()._open_app_process(width, height)
        env = self._build_environment(width, height)
        try:
            piped = await fork_tab(warm, env, self.memory_mb * 2**20 or None)
        except (WarmParentError, OSError) as error:  # this tab gets a fresh Python instead
            log.warning("the warm parent failed (%s): this tab's arcade is spawned", error)
            return await super()._open_app_process(width, height)
        self._piped = piped
        if self.forked is not None:
            self.forked.add(piped)
        self._stdin = piped.stdin
        process = cast(Process, piped)  # AppService.run reads only its stdout and stderr
        self._process = process
        return process

    async def stop(self) -> None:
        """textual-serve's stop (the tab is told to quit, its output read to the end), then a
        forked arcade is ended and reaped (a spawned one is textual-serve's)."""
        piped = self._piped
        if piped is None:
            await super().stop()
            return
        try:  # a tab that does not quit is ended by `piped.end`
            await asyncio.wait_for(super().stop(), QUIT_GRACE_SECONDS)
        except TimeoutError:
            self._task = None
        await piped.end()
        self._piped = None
        if self.forked is not None:
            self.forked.discard(piped)

    async def set_terminal_size(self, width: int, height: int) -> None:
        columns, rows = to_int(str(width), 80), to_int(str(height), 24)
        await super().set_terminal_size(*clamp_size(columns, rows))


class ArcadeWebServer(Server):
    """textual-serve's Server with Kaeru's template, a second static folder (the font), and the
    guards of the module's docstring."""

    def __init__(
        self,
        command: str,
        *,
        allowed_origins: set[str],
        max_sessions: int,
        memory_mb: int,
        **options: Any,
    ) -> None:
        super().__init__(command, **options)
        self.allowed_origins = allowed_origins
        self.max_sessions = max_sessions
        self.memory_mb = memory_mb
        self.sessions = 0
        self.shared: SharedProcesses | None = None  # the warm parent, the pool, the survey
        self.forked: set[PipedArcade] = set()

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

    async def on_shutdown(self, app: web.Application) -> None:
        """The forked tabs still open end with the server (a spawned one ends when
        textual-serve closes its tab)."""
        await asyncio.gather(*(piped.end(quit_grace=0) for piped in list(self.forked)))
        self.forked.clear()

    def refusal(self, request: web.Request) -> web.HTTPException | None:
        origin = request.headers.get("Origin")
        peer = request.remote or "?"
        if origin is not None and origin not in self.allowed_origins:
            log.warning("refused %s: a WebSocket from another site's page (%s)", peer, origin[:80])
            return web.HTTPForbidden(text="kaeru serve: this arcade plays only from its own page")
        if self.sessions >= self.max_sessions:
            log.warning("limit: refused %s: the arcade is full (%d tabs)", peer, self.max_sessions)
            return web.HTTPServiceUnavailable(text="kaeru serve: the arcade is full; try later")
        return None

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's handler (1.1.3), behind the origin check and the cap, with the
        arcade's own AppService."""
        refused = self.refusal(request)
        if refused is not None:
            raise refused
        self.sessions += 1
        log.info("session from %s (%d running)", request.remote, self.sessions)
        try:
            return await self._serve_websocket(request)
        finally:
            self.sessions -= 1
            log.info("disconnect %s (%d running)", request.remote, self.sessions)

    async def _serve_websocket(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15)
        width, height = clamp_size(
            to_int(request.query.get("width", "80"), 80),
            to_int(request.query.get("height", "24"), 24),
        )
        app_service: ArcadeService | None = None

        async def close() -> None:
            await websocket.close()

        try:
            await websocket.prepare(request)
            app_service = ArcadeService(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            app_service.memory_mb = self.memory_mb
            app_service.shared = self.shared
            app_service.forked = self.forked
            await app_service.start(width, height)
            try:
                await self._process_messages(websocket, app_service)
            finally:
                await app_service.stop()
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a bad message ends that tab, in one line
            log.warning("tab from %s ended: %s: %s", request.remote, type(error).__name__, error)
        finally:
            if app_service is not None:
                await app_service.stop()
        return websocket


def make_server(
    host: str,
    port: int,
    public_url: str | None = None,
    *,
    allow_origins: tuple[str, ...] = (),
    max_sessions: int = 8,
    memory_mb: int = 2048,
) -> ArcadeWebServer:
    """A server for the arcade on `host:port` (one process per browser tab: forked from the warm
    parent once `shared` is set, else textual-serve's, started by the command below)."""
    memory = str(memory_mb * 2**20 if memory_mb else 0)
    command = shlex.join([sys.executable, "-m", "kaeru.tui.serve.web.tab", memory])
    extra = {origin.rstrip("/") for origin in allow_origins}
    return ArcadeWebServer(
        command,
        allowed_origins=own_origins(host, port, public_url) | extra,
        max_sessions=max_sessions,
        memory_mb=memory_mb,
        host=host,
        port=port,
        title="Kaeru Arcade",
        public_url=public_url,
        templates_path=HERE / "templates",
    )
