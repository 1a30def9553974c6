"""Outputs written whole (``html.whole_file``): through an unnamed file, a named
temporary file, or a copy when the unnamed file cannot be linked; an error in the
writer leaves the old file and nothing else."""

from __future__ import annotations

import os

import pytest

from indist_fast.html import whole_file


def no_proc_link(*args, **kwargs):
    raise PermissionError(1, "linkat through /proc refused")


def exists_then_refused(source, target, **kwargs):
    # (the kernel may report the existing target before refusing the link itself)
    if not os.path.basename(target).startswith(whole_file.TEMP_PREFIX):
        raise FileExistsError(17, "File exists")
    no_proc_link()


@pytest.fixture(params=["unnamed", "named", "copied", "copied after EEXIST"])
def way(request, monkeypatch):
    if request.param == "named":
        monkeypatch.setattr(whole_file, "UNNAMED", False)
    elif request.param.startswith("copied"):
        if not whole_file.UNNAMED:
            pytest.skip("no O_TMPFILE here")
        monkeypatch.setattr(whole_file.os, "link", no_proc_link if request.param == "copied"
                            else exists_then_refused)
    return request.param


def test_the_file_is_written_and_keeps_the_old_ones_permissions(tmp_path, way):
    path = tmp_path / "t.csv"
    whole_file.write_text_whole(str(path), lambda fh: fh.write("a,b\n1,2\n" * 100_000))
    assert path.read_text() == "a,b\n1,2\n" * 100_000
    os.chmod(path, 0o640)
    whole_file.write_whole(str(path), lambda fh: fh.write(b"new"))
    assert path.read_bytes() == b"new"
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert os.listdir(tmp_path) == ["t.csv"]


def test_a_new_file_gets_the_umasks_permissions(tmp_path, way):
    umask = os.umask(0o027)
    try:
        whole_file.write_whole(str(tmp_path / "n.html"), lambda fh: fh.write(b"x"))
    finally:
        os.umask(umask)
    assert os.stat(tmp_path / "n.html").st_mode & 0o777 == 0o640


def test_an_error_while_writing_leaves_the_old_file_and_nothing_else(tmp_path, way):
    path = tmp_path / "f.png"
    path.write_bytes(b"old")

    def failing(fh):
        fh.write(b"half")
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        whole_file.write_whole(str(path), failing)
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["f.png"]


def test_a_figure_takes_the_format_its_name_says(tmp_path):
    plt = pytest.importorskip("matplotlib.pyplot")
    fig = plt.figure(figsize=(1, 1))
    try:
        whole_file.save_figure_whole(fig, str(tmp_path / "f.PNG"), dpi=20)
        whole_file.save_figure_whole(fig, str(tmp_path / "f.svg"), dpi=20)
    finally:
        plt.close(fig)
    assert (tmp_path / "f.PNG").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "f.svg").read_bytes()[:1000]
