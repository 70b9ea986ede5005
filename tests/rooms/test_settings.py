"""Server settings from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.settings import Settings, SettingsError


def test_environment_variables_set_the_defaults() -> None:
    s = Settings.from_env({"AMERIKANER_PORT": "9000", "AMERIKANER_DATA_DIR": "/srv/a",
                           "AMERIKANER_ORIGINS": "https://a.example, https://b.example/",
                           "AMERIKANER_BOT_DELAY": "0", "AMERIKANER_HOST": ""})
    assert s.port == 9000 and s.data_dir == Path("/srv/a") and s.host == "127.0.0.1"
    assert s.origins == ("https://a.example", "https://b.example")
    assert s.bot_delay == 0.0
    assert s.with_overrides(port=8001, host=None).port == 8001


@pytest.mark.parametrize("name,value", [("AMERIKANER_PORT", "abc"),
                                        ("AMERIKANER_RATE", "fast"),
                                        ("AMERIKANER_GRACE_SECONDS", "-3")])
def test_bad_values_are_refused_with_the_variable_named(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value})
