"""One module per screen; each screen rebuilds itself from the app's session in `render`."""

from .calibration import CalibrationScreen
from .editors import EditorsScreen
from .hints import HintsScreen
from .home import HomeScreen
from .live import LiveScreen
from .ruling import RulingScreen
from .score import ScoreScreen
from .settings import SettingsScreen
from .setup import SetupScreen

SCREENS = (
    HomeScreen,
    SetupScreen,
    CalibrationScreen,
    LiveScreen,
    RulingScreen,
    HintsScreen,
    ScoreScreen,
    EditorsScreen,
    SettingsScreen,
)

__all__ = ["SCREENS"]
