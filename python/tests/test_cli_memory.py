"""Sizes within their bounds that do not fit the machine's memory: one line naming the command
and the cause, exit 2, no file; not "internal error: std::bad_alloc" (exit 3)."""
import resource
import subprocess


def test_generate_beyond_memory_is_said_so(cli, tmp_path):
    def limit():  # 2 GB of address space: the bridge of 10^5 pieces asks for more
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    out = tmp_path / "b.h5"
    p = subprocess.run([cli, "generate", "bridge", "-p", "pieces=100000", "-n", "1", "-q", "-o",
                        str(out)], capture_output=True, text=True, preexec_fn=limit, timeout=300)
    assert p.returncode == 2, p.stderr
    assert "generate: out of memory (std::bad_alloc)" in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and not out.exists()
