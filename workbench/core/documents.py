"""Documents a peer returns, made safe and small: which viewer a media type gets, CSV cut to a table, HTML sanitised.

Everything here is plain Python the window (and any script) can call; nothing is rendered. The bounds
keep the work per document small whatever a peer sends: a CSV is parsed from its first
``CSV_MAX_PARSE_CHARS`` characters only (a million rows cost a line count, not a parse), HTML is
sanitised from its first ``HTML_MAX_CHARS`` characters and nested at most ``HTML_MAX_DEPTH`` deep,
and a PDF above ``PDF_MAX_BYTES`` is not opened at all.

``sanitise_html`` keeps a strict subset of HTML: text, headings, paragraphs, lists, tables, emphasis
and code. Scripts, styles, frames, objects, forms and their controls, and ``<head>`` are dropped with
their contents; images become a bracketed note naming them (nothing is loaded); a link keeps its text
and an ``http``/``https``/``mailto`` target only (any other scheme, ``javascript:`` above all, leaves
plain text). No attribute survives but ``href`` and a table cell's spans, so no ``style`` can load a
URL or hide text. What was removed is counted for the note shown above the document.
"""

from __future__ import annotations

import contextlib
import csv
import html
import io
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Literal
from urllib.parse import urlsplit

from workbench.core.safe_text import neutralise

DocumentKind = Literal["pdf", "csv", "html"]

PDF_TYPES = frozenset({"application/pdf", "application/x-pdf"})
CSV_TYPES = frozenset({"text/csv", "application/csv", "text/tab-separated-values"})
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})

PDF_MAX_BYTES = 20_000_000
"""Largest PDF the window opens (bigger ones are offered for saving)."""
CSV_MAX_ROWS = 1_000
"""Rows of a CSV shown in its table (the header row not counted)."""
CSV_MAX_COLUMNS = 50
"""Columns of a CSV shown in its table."""
CSV_MAX_CELL_CHARS = 1_000
"""Characters of one CSV cell kept (the rest cut with ``…``)."""
CSV_MAX_PARSE_CHARS = 2_000_000
"""Characters of a CSV parsed at most (rows past them are counted by lines, not parsed)."""
HTML_MAX_CHARS = 500_000
"""Characters of an HTML document sanitised and shown at most."""
HTML_MAX_DEPTH = 40
"""Deepest element nesting kept (deeper elements keep their text, not their tags)."""

SAFE_LINK_SCHEMES = frozenset({"http", "https", "mailto"})


def media_type_essence(mime_type: str | None) -> str:
    """``Text/CSV; charset=utf-8`` → ``text/csv``."""
    return (mime_type or "").split(";", 1)[0].strip().lower()


def document_kind(mime_type: str | None) -> DocumentKind | None:
    """Which document viewer shows ``mime_type`` (``None``: none of them)."""
    essence = media_type_essence(mime_type)
    if essence in PDF_TYPES:
        return "pdf"
    if essence in CSV_TYPES:
        return "csv"
    if essence in HTML_TYPES:
        return "html"
    return None


def decode_text(data: bytes, mime_type: str | None) -> str:
    """The text of a text document sent as bytes: its ``charset`` parameter if Python knows it, else UTF-8."""
    charset = "utf-8"
    for param in (mime_type or "").split(";")[1:]:
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            charset = value.strip().strip('"')
    try:
        return data.decode(charset, errors="replace")
    except LookupError:
        return data.decode("utf-8", errors="replace")


# ------------------------------------------------------------------------------------------ CSV


@dataclass(frozen=True)
class CSVTable:
    """The part of a CSV document that is shown, and what was left out.

    Attributes:
        header: The first row (``None`` for an empty document), kept apart: it may be column titles.
        rows: The rows after it (at most ``CSV_MAX_ROWS``), each at most ``CSV_MAX_COLUMNS`` cells.
        columns: Columns of the widest row parsed (before the cut).
        total_rows: Data rows in the whole document (the first row not counted when it reads as a header):
            exact when the document was parsed whole, else counted by lines.
        exact_total: Whether ``total_rows`` is exact.
        cells_cut: How many cells were longer than ``CSV_MAX_CELL_CHARS`` and cut.
        delimiter: The delimiter used.
        problem: Why parsing stopped early (a malformed row), else ``None``.
        has_header: Whether the first row reads as column titles (``csv.Sniffer``'s guess).
    """

    header: list[str] | None
    rows: list[list[str]]
    columns: int
    total_rows: int
    exact_total: bool
    cells_cut: int = 0
    delimiter: str = ","
    problem: str | None = None
    has_header: bool = False

    @property
    def shown_columns(self) -> int:
        """Columns in the table (``columns`` bounded by ``CSV_MAX_COLUMNS``)."""
        return min(self.columns, CSV_MAX_COLUMNS)

    @property
    def shown_rows(self) -> int:
        """Data rows in the table: the rows kept, and the first row too when it is not a header."""
        first = 1 if self.header is not None and not self.has_header else 0
        return min(len(self.rows) + first, CSV_MAX_ROWS)

    def note(self) -> str:
        """One sentence saying what the table leaves out (empty when it shows everything)."""
        cuts: list[str] = []
        if self.shown_rows < self.total_rows:
            about = "" if self.exact_total else "about "
            cuts.append(f"the first {self.shown_rows:,} of {about}{self.total_rows:,} rows")
        if self.columns > CSV_MAX_COLUMNS:
            cuts.append(f"the first {CSV_MAX_COLUMNS} of {self.columns:,} columns")
        text = f"Showing {' and '.join(cuts)}." if cuts else ""
        if self.cells_cut:
            text += f" {self.cells_cut:,} long cell{'s' if self.cells_cut != 1 else ''} cut."
        if self.problem:
            text += f" Parsing stopped: {self.problem}."
        return (text + (" Save the file to see all of it." if cuts or self.problem else "")).strip()


def _sniff(sample: str, default: str) -> tuple[str, bool]:
    """The delimiter and whether the first row is a header, from a sample of the first lines."""
    delimiter = default
    with contextlib.suppress(csv.Error):
        delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    try:
        has_header = csv.Sniffer().has_header(sample)
    except csv.Error:
        has_header = False
    return delimiter, has_header


def parse_csv(text: str, mime_type: str | None = "text/csv") -> CSVTable:
    """The table of a CSV (or TSV) document, bounded: see ``CSV_MAX_ROWS`` and the other limits.

    The delimiter and whether the first row is a header are guessed from the first lines
    (``csv.Sniffer``); a document that is not CSV at all becomes one column of lines.
    """
    default = "\t" if media_type_essence(mime_type) == "text/tab-separated-values" else ","
    head = text[:CSV_MAX_PARSE_CHARS]
    whole = len(head) == len(text)
    if not whole and "\n" in head:  # parse whole lines only
        head = head[: head.rindex("\n") + 1]
    sample_end = -1
    for _ in range(20):
        sample_end = head.find("\n", sample_end + 1)
        if sample_end < 0:
            break
    delimiter, has_header = _sniff(head[: sample_end if sample_end > 0 else 8_192][:8_192], default)
    rows: list[list[str]] = []
    columns = 0
    cut = 0
    parsed = 0
    problem: str | None = None
    reader = csv.reader(io.StringIO(head), delimiter=delimiter)
    try:
        for row in reader:
            parsed += 1
            columns = max(columns, len(row))
            if len(rows) <= CSV_MAX_ROWS:  # the first row and CSV_MAX_ROWS after it
                kept = []
                for cell in row[:CSV_MAX_COLUMNS]:
                    if len(cell) > CSV_MAX_CELL_CHARS:
                        cut += 1
                        cell = cell[:CSV_MAX_CELL_CHARS] + "…"
                    kept.append(cell)
                rows.append(kept)
    except csv.Error as exc:
        problem = f"row {parsed + 1} is malformed ({exc})"
        whole = True  # what follows a malformed row is not counted either
    header = rows.pop(0) if rows else None
    titles = 1 if has_header and header is not None else 0
    data_rows = parsed - titles
    if whole:
        total, exact = data_rows, True
    else:
        lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        total, exact = max(data_rows, lines - titles), False
    return CSVTable(
        header=header,
        rows=rows[:CSV_MAX_ROWS],
        columns=columns,
        total_rows=total,
        exact_total=exact,
        cells_cut=cut,
        delimiter=delimiter,
        problem=problem,
        has_header=has_header and header is not None,
    )


# ------------------------------------------------------------------------------------------ HTML


def _words(text: str) -> list[str]:
    return text.split()


_KEPT = frozenset(
    _words(
        "p br hr h1 h2 h3 h4 h5 h6 b i u s em strong code pre kbd samp var small sub sup blockquote q cite "
        "ul ol li dl dt dd table thead tbody tfoot tr th td caption a span div section article header footer "
        "main nav aside figure figcaption abbr mark del ins "
    )
)
"""Elements kept (without attributes but a link's ``href`` and a cell's spans)."""
_VOID = frozenset(_words("br hr img input meta link base col area source track wbr param embed keygen "))
_DROPPED_WITH_CONTENT = frozenset(
    _words(
        "script style iframe frame frameset object embed applet noscript template svg math form head title "
        "select textarea button canvas audio video noembed noframes dialog portal "
    )
)
"""Elements removed together with everything inside them."""
_FORM_CONTROLS = frozenset({"input", "button", "select", "textarea", "option", "form"})
_SILENT = frozenset({"head", "title", "noscript", "noembed", "noframes", "option"})
"""Dropped without a mention (nothing in them is active)."""
_MAX_OPEN = 10_000
"""Open elements tracked at most; deeper start and end tags are ignored (their text stays)."""


@dataclass
class SanitisedHTML:
    """Sanitised HTML and what was taken out of it.

    Attributes:
        html: The document reduced to the kept subset (safe to hand to a ``QTextDocument``).
        removed: Counts of what was removed, by kind: ``script``, ``frame``, ``form``, ``image``,
            ``unsafe link``, ``style``, ``other``.
        links: The link targets kept (in document order).
        truncated: The document was longer than ``HTML_MAX_CHARS`` and was cut.
    """

    html: str
    removed: Counter[str] = field(default_factory=Counter)
    links: list[str] = field(default_factory=list)
    truncated: bool = False

    def note(self) -> str:
        """One sentence naming what was removed (empty when nothing was)."""
        parts = [f"{count:,} {kind}{'s' if count != 1 else ''}" for kind, count in sorted(self.removed.items())]
        text = f"Removed for safety: {', '.join(parts)}." if parts else ""
        if self.truncated:
            text += f" Only the first {HTML_MAX_CHARS:,} characters are shown."
        return text.strip()


def _removed_kind(tag: str) -> str:
    if tag == "script":
        return "script"
    if tag in ("iframe", "frame", "frameset", "object", "embed", "applet", "portal"):
        return "frame"
    if tag in _FORM_CONTROLS:
        return "form"
    if tag in ("style", "link"):
        return "style"
    if tag in ("audio", "video", "canvas", "svg"):
        return "media"
    return "other"


def safe_link(href: str | None) -> str | None:
    """``href`` when it is an ``http``, ``https`` or ``mailto`` URL with nothing hidden in it, else ``None``."""
    if not href:
        return None
    href = href.strip()
    if any(ch.isspace() or ord(ch) < 32 for ch in href):
        return None
    try:
        scheme = urlsplit(href).scheme.lower()
    except ValueError:
        return None
    return href if scheme in SAFE_LINK_SCHEMES else None


class _Sanitiser(HTMLParser):
    def __init__(self, out: SanitisedHTML) -> None:
        super().__init__(convert_charrefs=True)
        self.out = out
        self.parts: list[str] = []
        self.open: list[tuple[str, bool]] = []  # open elements: name, whether its tags are kept
        self.skipping: list[str] = []  # the dropped-with-content elements we are inside
        self.skipping_names: Counter[str] = Counter()
        self.open_names: Counter[str] = Counter()  # the names in ``open``, for a stray end tag's check
        self.kept_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        dropped = tag in _DROPPED_WITH_CONTENT or tag in _FORM_CONTROLS
        if dropped and tag not in _SILENT and not (self.skipping and tag in _FORM_CONTROLS):
            self.out.removed[_removed_kind(tag)] += 1  # a control inside a dropped form is that form's
        if dropped or self.skipping:
            if tag not in _VOID and len(self.skipping) < _MAX_OPEN:
                self.skipping.append(tag)
                self.skipping_names[tag] += 1
            return
        if tag == "img":
            names = dict(attrs)
            src = (names.get("src") or "").strip()
            alt = (names.get("alt") or "").strip()
            self.out.removed["image"] += 1
            label = f"[image{': ' + alt if alt else ''}{' — ' + src[:200] if src else ''}]"
            self.parts.append(f"<i>{html.escape(neutralise(label))}</i>")
            return
        if tag in _VOID:
            if tag in ("br", "hr"):
                self.parts.append(f"<{tag}>")
            elif tag != "wbr":
                self.out.removed[_removed_kind(tag)] += 1
            return
        if len(self.open) >= _MAX_OPEN:
            return  # its end tag is then a stray one
        keep = tag in _KEPT and self.kept_depth < HTML_MAX_DEPTH
        attributes = ""
        if keep and tag == "a":
            target = safe_link(dict(attrs).get("href"))
            if target is None:
                if dict(attrs).get("href"):
                    self.out.removed["unsafe link"] += 1
                keep = False
            else:
                self.out.links.append(target)
                attributes = f' href="{html.escape(target, quote=True)}"'
        elif keep and tag in ("td", "th"):
            for name, value in attrs:
                if name in ("colspan", "rowspan") and value and value.isdigit() and int(value) <= 100:
                    attributes += f' {name}="{int(value)}"'
        if any(name.startswith("on") for name, _ in attrs):
            self.out.removed["script"] += 1
        self.open.append((tag, keep))
        self.open_names[tag] += 1
        self.kept_depth += keep
        if keep:
            self.parts.append(f"<{tag}{attributes}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            while self.skipping_names[tag]:
                name = self.skipping.pop()
                self.skipping_names[name] -= 1
                if name == tag:
                    break
            return
        if tag in _VOID:
            return
        if not self.open_names[tag]:
            return  # a stray end tag
        while self.open:
            name, kept = self.open.pop()
            self.open_names[name] -= 1
            self.kept_depth -= kept
            if kept:
                self.parts.append(f"</{name}>")
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(html.escape(neutralise(data), quote=False))

    def result(self) -> str:
        self.close()
        closing = "".join(f"</{name}>" for name, kept in reversed(self.open) if kept)
        return "".join(self.parts) + closing


def sanitise_html(text: str) -> SanitisedHTML:
    """``text`` reduced to the safe subset described in the module docstring, with a count of what went."""
    out = SanitisedHTML(html="", truncated=len(text) > HTML_MAX_CHARS)
    parser = _Sanitiser(out)
    parser.feed(text[:HTML_MAX_CHARS])
    out.html = parser.result()
    return out
