"""The wire log: what crossed each connection, recorded, redacted, stored, parsed and exported.

- ``records``: ``WireRecord``, ``Direction``, ``WireKind`` (plain data);
- ``recorder``: ``WireRecorder``, the transport taps' sink, redaction and the ring buffer;
- ``store``: bounded, indexed storage of records; ``parse``: cheap inspection of wire text;
- ``redaction``: credential headers, URL parameters and known secret values masked;
- ``export``: JSON Lines and HAR; ``curl``: a recorded HTTP request as a command line safe to paste.

Import from the module that holds a name (``from workbench.core.wire.recorder import WireRecorder``): this
package's ``__init__`` imports nothing, so reading a record's type does not load the recorder.
"""
