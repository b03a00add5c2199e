"""The browser every page test drives."""
import pytest

from tests.ui.web.browser import chromium


@pytest.fixture
def browser():
    driver = chromium()
    yield driver
    driver.quit()
