"""Slowloris for bench/serve-load: CLIENTS clients each open a connection every second
and send part of a request head (never its end), then a byte a second on every
connection they still hold, until SECONDS have passed. Prints what became of them.

Usage: python3 bench/slowloris.py PORT [CLIENTS] [SECONDS]
"""
import resource
import socket
import sys
import time

PARTIAL = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slowloris\r\nX-Slow: "


def main(port: int, clients: int, seconds: float) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    held: list[tuple[socket.socket, float]] = []
    opened = refused = closed_by_server = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        tick = time.monotonic()
        for _ in range(clients):
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=2)
                conn.sendall(PARTIAL)
                conn.setblocking(False)
                held.append((conn, tick))
                opened += 1
            except OSError:
                refused += 1
        kept = []
        for conn, since in held:
            try:
                conn.recv(4096)  # an answer, or b"": the server is done with it
                ended = True
            except BlockingIOError:
                ended = False
            except OSError:
                ended = True
            if not ended:
                try:
                    conn.send(b"x")
                except OSError:
                    ended = True
            closed_by_server += ended
            # Held at most 30 s, so the script's own files stay bounded.
            if ended or tick - since >= 30:
                conn.close()
            else:
                kept.append((conn, since))
        held = kept
        time.sleep(max(0.0, 1 - (time.monotonic() - tick)))
    print(f"slowloris: {opened} partial heads sent, {refused} connections failed, "
          f"{closed_by_server} closed by the server, {len(held)} still open")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 100,
         float(sys.argv[3]) if len(sys.argv) > 3 else 10)
