"""RFC 6570 resource templates through the MCP adapter (the SDK's UriTemplate), without a server."""

from __future__ import annotations

import pytest

from workbench.core.errors import ProtocolError
from workbench.core.protocols.mcp.uri_templates import expand_uri_template, uri_template_variables


def test_variables_are_listed_in_order_of_appearance_across_operators():
    assert uri_template_variables("demo://items/{item_id}") == ["item_id"]
    assert uri_template_variables("x://{a}/{+path}{?q,page}") == ["a", "path", "q", "page"]
    assert uri_template_variables("x://plain") == []


def test_simple_expansion_encodes_reserved_characters_and_reserved_expansion_keeps_them():
    assert expand_uri_template("demo://items/{item_id}", {"item_id": "a b/c"}) == "demo://items/a%20b%2Fc"
    assert expand_uri_template("x://{+path}", {"path": "a/b c"}) == "x://a/b%20c"


def test_an_empty_query_value_is_defined_and_kept_while_a_missing_one_is_left_out():
    assert expand_uri_template("x://s{?x,y}", {"x": "", "y": "1024"}) == "x://s?x=&y=1024"
    assert expand_uri_template("x://s{?x,y}", {"y": "1024"}) == "x://s?y=1024"
    assert expand_uri_template("x://s{?x,y}", {}) == "x://s"


def test_path_explode_joins_list_values_with_the_operator_separator():
    assert expand_uri_template("x://files{/path*}", {"path": ["a", "b c"]}) == "x://files/a/b%20c"


@pytest.mark.parametrize(
    "template",
    [
        "x://{var:3}",  # prefix modifier: RFC 6570 level 4, not expanded by the SDK
        "x://{a}/{a}",  # repeated variable
        "x://{<i>v</i>}",  # invalid variable name
        "x://{open",  # unclosed expression
    ],
)
def test_a_template_the_sdk_cannot_expand_raises_a_protocol_error_instead_of_a_wrong_uri(template):
    with pytest.raises(ProtocolError) as caught:
        uri_template_variables(template)
    assert caught.value.code == "protocol"
    assert caught.value.details["template"] == template
    with pytest.raises(ProtocolError):
        expand_uri_template(template, {"var": "value", "a": "1"})
