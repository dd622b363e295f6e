"""The benchmark's gateways run as the image runs its gateway: image_jvm in scripts/common.sh gives the JVM the flags
that gateway/Dockerfile gives it, the heap that its percentages make of the 512 MB limit compose and Kubernetes set.
Both lists are written by hand; this says when one changes without the other.

    python3 -m unittest discover -s bench -p 'test_*.py'
"""

import json
import re
import subprocess
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MEMORY_LIMIT_MB = 512


def dockerfile_flags():
    """JAVA_TOOL_OPTIONS and the ENTRYPOINT's options before -jar, with the heap percentages as -Xms and -Xmx."""
    text = (ROOT / "gateway" / "Dockerfile").read_text().replace("\\\n", " ")
    options = re.search(r'^ENV JAVA_TOOL_OPTIONS="([^"]*)"', text, re.MULTILINE).group(1).split()
    command = json.loads(re.search(r"^ENTRYPOINT (\[.*\])$", text, re.MULTILINE).group(1))
    options += command[1:command.index("-jar")]
    heap = {"-XX:MaxRAMPercentage": "-Xmx", "-XX:InitialRAMPercentage": "-Xms"}
    flags = set()
    for option in options:
        name, _, value = option.partition("=")
        if name in heap:
            flags.add(f"{heap[name]}{int(MEMORY_LIMIT_MB * float(value) / 100)}m")
        else:
            flags.add(option)
    return flags


def image_jvm_flags(java_version):
    """GATEWAY_JAVA_OPTS as image_jvm sets them for a java that says it is of java_version."""
    with tempfile.TemporaryDirectory() as work:
        java = Path(work) / "java"
        java.write_text(f"#!/bin/sh\necho '    java.specification.version = {java_version}' >&2\n")
        java.chmod(0o755)
        script = 'source scripts/common.sh && image_jvm && printf "%s" "$GATEWAY_JAVA_OPTS"'
        result = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
                                env={"PATH": "/usr/bin:/bin", "GATEWAY_JAVA": str(java)})
    return set(result.stdout.split())


class ImageJvmTests(unittest.TestCase):

    def test_the_benchmark_gateway_on_java_25_has_the_image_flags(self):
        self.assertEqual(dockerfile_flags(), image_jvm_flags(25))

    def test_a_java_before_24_gets_them_without_the_options_it_refuses(self):
        refused = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"}
        self.assertEqual(dockerfile_flags() - refused, image_jvm_flags(17))


if __name__ == "__main__":
    unittest.main()
