"""A static server for the built site that compresses text as a real host does.

Python's ``http.server`` sends every file as it is. Lighthouse charges a page for the bytes
it transfers, so measuring against it would count a lesson's HTML, CSS and scripts at their
uncompressed size, which no reader downloads. This handler sends HTML, CSS, JavaScript,
JSON, SVG and text gzip-compressed when the request accepts it.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import threading
from pathlib import Path

COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml")


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder; text-like files gzip-compressed when the client accepts gzip."""

    def log_message(self, *args):
        pass

    def send_head(self):
        url_path = self.path.split("?", 1)[0].split("#", 1)[0]
        path = Path(self.translate_path(self.path))
        if path.is_dir() and url_path.endswith("/"):
            path = path / "index.html"
        content_type = self.guess_type(str(path))
        wants_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (wants_gzip and path.is_file() and content_type.startswith(COMPRESSED_TYPES)):
            return super().send_head()  # folders without a slash (redirect), 404s, images
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve ``folder`` on a free port of 127.0.0.1 in a daemon thread: (server, base URL)."""
    handler = functools.partial(GzipHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"
