#!/usr/bin/env python3
"""server_hostile.py - hostile HTTP clients for Benchmarks/server_hardening.sh, each bounded in count and time.

  garbage PORT             three garbage connections: binary junk, a 100 KB URL, a POST announcing a 100 MB body that
                           then goes quiet (left open; the process exits when the server drops it, or after 60 s)
  slow PORT N SECONDS      N clients trickling a request one byte a second; a dropped client reconnects
  hangup PORT SECONDS      clients sending half of a POST body and hanging up, 50 a second
  completing PORT SECONDS  the control for hangup: the same connections, bytes and rate, but each POST is whole (to
                           /health, which refuses a POST at once) and its answer is read before closing
  closetimes PORT SECONDS  idle, slow (a byte a second) and quiet-POST connections, 10 of each; prints per kind the
                           longest time until the server closed one (or "open" when still open after SECONDS)
"""
import os
import random
import socket
import sys
import threading
import time


def connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=5)


def closed(sock, until):
    """Waits for the server to close `sock` (EOF or reset); the time it did, or None when still open at `until`."""
    while time.time() < until:
        sock.settimeout(max(0.01, min(0.5, until - time.time())))
        try:
            if sock.recv(65536) == b"":
                return time.time()
        except socket.timeout:
            continue
        except OSError:
            return time.time()
    return None


def quiet_post(port):
    s = connect(port)
    s.sendall(b"POST /traffic HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: 104857600\r\n\r\nedge,speed\n")
    return s


def garbage(port):
    rng = random.Random(7)
    junk = connect(port)
    junk.sendall(bytes(rng.randrange(256) for _ in range(4096)) + b"\r\n\r\n")
    url = connect(port)
    url.sendall(b"GET /route/v1/driving/" + b"9.19,45.46;" * 9300 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    post = quiet_post(port)
    for s in (junk, url):
        closed(s, time.time() + 10)
        s.close()
    closed(post, time.time() + 60)
    post.close()


def trickle(port, until, request=b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"):
    while time.time() < until:
        try:
            s = connect(port)
            for byte in request:
                if time.time() >= until:
                    break
                s.send(bytes([byte]))
                time.sleep(1)
            s.close()
        except OSError:
            time.sleep(0.2)


def slow(port, count, seconds):
    until = time.time() + seconds
    threads = [threading.Thread(target=trickle, args=(port, until), daemon=True) for _ in range(count)]
    for t in threads:
        t.start()
        time.sleep(0.005)
    for t in threads:
        t.join()


def hangup(port, seconds):
    until, sent = time.time() + seconds, 0
    body = b"edge,speed\n" + b"1,30\n" * 2000
    while time.time() < until and sent < 50 * seconds:
        try:
            s = connect(port)
            s.sendall(b"POST /traffic HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: %d\r\n\r\n" % len(body)
                      + body[: len(body) // 2])
            s.close()
        except OSError:
            pass
        sent += 1
        time.sleep(0.02)


def completing(port, seconds):
    until, sent = time.time() + seconds, 0
    half = len(b"edge,speed\n" + b"1,30\n" * 2000) // 2
    while time.time() < until and sent < 50 * seconds:
        try:
            s = connect(port)
            s.sendall(b"POST /health HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % half
                      + b"1" * half)
            while s.recv(65536):
                pass
            s.close()
        except OSError:
            pass
        sent += 1
        time.sleep(0.02)


def closetimes(port, seconds):
    start = time.time()
    until = start + seconds
    kinds = {"idle": [connect(port) for _ in range(10)], "quiet POST": [quiet_post(port) for _ in range(10)]}
    slow_sockets = [connect(port) for _ in range(10)]
    kinds["slow"] = slow_sockets
    results = {}
    stop = threading.Event()

    def feed():  # one byte a second to every slow socket until the server closes it
        request = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
        for byte in request:
            if stop.is_set():
                return
            for s in slow_sockets:
                try:
                    s.send(bytes([byte]))
                except OSError:
                    pass
            time.sleep(1)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    for kind, sockets in kinds.items():
        times = [closed(s, until) for s in sockets]
        results[kind] = "open" if any(t is None for t in times) else f"{max(t - start for t in times):.1f}"
    stop.set()
    for sockets in kinds.values():
        for s in sockets:
            s.close()
    print(" ".join(f"{k.replace(' ', '_')}={v}" for k, v in results.items()))


if __name__ == "__main__":
    command, port = sys.argv[1], int(sys.argv[2])
    if command == "garbage":
        garbage(port)
    elif command == "slow":
        slow(port, int(sys.argv[3]), float(sys.argv[4]))
    elif command == "hangup":
        hangup(port, float(sys.argv[3]))
    elif command == "completing":
        completing(port, float(sys.argv[3]))
    elif command == "closetimes":
        closetimes(port, float(sys.argv[3]))
    else:
        sys.exit(__doc__)
