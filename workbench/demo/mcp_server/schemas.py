"""Pydantic models behind the demo tools' input, output and elicitation schemas."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import AnyUrl, BaseModel, Field, WithJsonSchema

Email = Annotated[
    str,
    Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$", json_schema_extra={"format": "email"}, examples=["ada@example.com"]),
]
"""An e-mail address: JSON Schema `format: email`, checked with a simple pattern (no extra dependency)."""

Cabin = Literal["economy", "premium", "business"]

Seat = Annotated[
    Literal["aisle", "window", "any"],
    WithJsonSchema(
        {
            "type": "string",
            "title": "Seat",
            "description": "Seat preference",
            "oneOf": [
                {"const": "aisle", "title": "Aisle seat"},
                {"const": "window", "title": "Window seat"},
                {"const": "any", "title": "No preference"},
            ],
        }
    ),
]
"""An enum whose options carry display titles (`oneOf` of `const` + `title`)."""


class TripDates(BaseModel):
    """First and last day of a trip."""

    start: date = Field(description="First day (YYYY-MM-DD)")
    end: date = Field(description="Last day (YYYY-MM-DD), not before start")


class Traveller(BaseModel):
    """One person on the trip."""

    name: str = Field(min_length=1, max_length=80, description="Full name")
    age: int = Field(ge=0, le=120, description="Age in years")
    email: Email
    seat: Seat = "any"


class Pickup(BaseModel):
    """Collect the tickets at a desk."""

    kind: Literal["pickup"] = "pickup"
    desk: Literal["central-station", "airport", "harbour"] = Field(description="Where to collect them")


class Delivery(BaseModel):
    """Send the tickets to an address."""

    kind: Literal["delivery"] = "delivery"
    street: str = Field(min_length=1)
    postcode: str = Field(pattern=r"^[0-9]{4,5}$", description="4 or 5 digits")
    express: bool = False


Shipping = Annotated[Pickup | Delivery, Field(discriminator="kind", description="Pickup or delivery of tickets")]


class TripPlan(BaseModel):
    """The structured result of `plan_trip`."""

    destination: str
    nights: int = Field(ge=0)
    travellers: int = Field(ge=1)
    cabin: Cabin
    total_eur: float = Field(ge=0, description="Deterministic price estimate")
    shipping: str
    website: str | None = None
    summary: str


class Weather(BaseModel):
    """Weather report for one city (from a fixed table)."""

    city: str
    condition: Literal["sunny", "cloudy", "rain", "snow", "fog"]
    temp_c: float = Field(description="Temperature in degrees Celsius")
    humidity_pct: int = Field(ge=0, le=100)


Area = Annotated[
    Literal["main", "terrace", "bar"],
    WithJsonSchema(
        {
            "type": "string",
            "title": "Area",
            "description": "Where to sit",
            "oneOf": [
                {"const": "main", "title": "Main room"},
                {"const": "terrace", "title": "Terrace"},
                {"const": "bar", "title": "At the bar"},
            ],
        }
    ),
]
"""A titled single-select enum as elicitation forms allow it (`oneOf` of `const` + `title`)."""


class BookingForm(BaseModel):
    """Form the `book_table` tool asks the user to fill in (flat primitives only, as elicitation requires)."""

    name: str = Field(min_length=1, max_length=60, description="Name for the reservation")
    email: Email = Field(description="Where to send the confirmation")
    party_size: int = Field(ge=1, le=12, description="Number of guests (1-12)")
    budget_eur: float = Field(default=50.0, ge=0, le=500, description="Budget per person in EUR")
    outdoor: bool = Field(default=False, description="Sit outside")
    area: Area = "main"
    time: Literal["18:00", "19:00", "20:00", "21:00"] = Field(default="19:00", description="Arrival time")


__all__ = [
    "AnyUrl",
    "Area",
    "BookingForm",
    "Cabin",
    "Delivery",
    "Email",
    "Pickup",
    "Seat",
    "Shipping",
    "Traveller",
    "TripDates",
    "TripPlan",
    "Weather",
]
