"""`kaeru serve ssh`: the SSH server (asyncssh) and each player's session on it.

- `server`: the server, its configuration, host key and guests; `session`: one SSH session
  (flow control both ways, the pty's window clamped, every ending through one place);
  `pty_session`: the arcade on its pty and its environment.
- `admission`: logins and sessions capped per key, per address and in all; `identity`: who a
  player is (a key's fingerprint or a guest) and their folders; `check`: `--check`'s lines.
"""
