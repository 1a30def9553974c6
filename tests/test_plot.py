"""Every plot renders to PNG with the Agg backend (size and non-blank pixels checked)."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

from indist_fast import plot  # noqa: E402
from indist_fast.datasets import nine_datasets  # noqa: E402

rng = np.random.default_rng(11)
Y = rng.random(3000) < 0.3
P = np.clip(0.35 * Y + 0.65 * rng.random(3000), 0, 1)


def check_png(fig, path, min_size=(200, 200)):
    fig.savefig(path, dpi=60)
    plt.close(fig)
    img = mpimg.imread(path)
    assert img.shape[0] >= min_size[0] and img.shape[1] >= min_size[1]
    rgb = img[..., :3]
    # not blank: many distinct colours, and a good share of non-white pixels
    assert len(np.unique(rgb.reshape(-1, 3), axis=0)) > 20
    assert np.mean(rgb.min(axis=-1) < 0.95) > 0.02


@pytest.mark.parametrize("name", ["scores_by_class", "roc", "b_curve", "c_tpr_fpr_vs_b",
                                  "b_split", "cost_curves"])
def test_each_plot_renders(name, tmp_path):
    ax = getattr(plot, name)(Y, P)
    assert isinstance(ax, matplotlib.axes.Axes)
    check_png(ax.figure, tmp_path / f"{name}.png")


def test_signal_curves_plot(tmp_path):
    pytest.importorskip("scipy")
    from indist_fast.resolving_power import Binormal, signal_curve
    sig = signal_curve(Binormal.for_auc(0.8), grid=np.linspace(0.7, 0.9, 9), prevalence=0.1)
    check_png(plot.signal_curves(sig).figure, tmp_path / "signal.png")


def test_sheets_render(tmp_path):
    check_png(plot.report_sheet(Y, P, title="sheet"), tmp_path / "sheet.png", (400, 700))
    check_png(plot.nine_panels(nine_datasets()), tmp_path / "nine.png", (500, 600))


def test_cli_plots(tmp_path):
    from indist_fast.cli import main
    assert main(["demo", "--plot", str(tmp_path / "demo.png")]) == 0
    np.savez(tmp_path / "d.npz", y=Y.astype(int), p=P)
    assert main(["evaluate", str(tmp_path / "d.npz"), "--label", "y", "--score", "p",
                 "--no-progress", "--plot", str(tmp_path / "sheet.png")]) == 0
    for name in ("demo.png", "sheet.png"):
        img = mpimg.imread(tmp_path / name)
        assert img.shape[0] > 300 and img[..., :3].std() > 0.05
