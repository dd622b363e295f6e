"""The benchmark's gateways run as the image runs its gateway: image_jvm in scripts/common.sh gives the JVM the flags
that gateway/Dockerfile gives it, the heap that its percentages make of the 512 MB limit compose and Kubernetes set.
Both lists are written by hand; this says when one changes without the other.

    python3 -m unittest discover -s bench -p 'test_*.py'
"""

import collections
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
    flags = []
    for option in options:
        name, _, value = option.partition("=")
        if name in heap:
            flags.append(f"{heap[name]}{int(MEMORY_LIMIT_MB * float(value) / 100)}m")
        else:
            flags.append(option)
    return flags


def setting(flag):
    """What a flag sets, whatever it sets it to: the JVM takes the last of two flags that set one thing."""
    match = re.fullmatch(r"-XX:[+-]?([^=]+)(=.*)?|(-Xm[sx]|-Xss)\S*|(-D[^=]+)(=.*)?|(--[^=]+)(=.*)?", flag)
    return next((group for group in match.groups() if group and not group.startswith("=")), flag) if match else flag


def repeated(flags):
    return sorted(name for name, count in collections.Counter(map(setting, flags)).items() if count > 1)


def image_jvm_flags(java_version):
    """GATEWAY_JAVA_OPTS as image_jvm sets them for a java that says it is of java_version."""
    with tempfile.TemporaryDirectory() as work:
        java = Path(work) / "java"
        java.write_text(f"#!/bin/sh\necho '    java.specification.version = {java_version}' >&2\n")
        java.chmod(0o755)
        script = 'source scripts/common.sh && image_jvm && printf "%s" "$GATEWAY_JAVA_OPTS"'
        result = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
                                env={"PATH": "/usr/bin:/bin", "GATEWAY_JAVA": str(java)})
    return result.stdout.split()


class ImageJvmTests(unittest.TestCase):

    # Compared as sets, which is sound only while neither list sets one thing twice (the test below).
    def test_the_benchmark_gateway_on_java_25_has_the_image_flags(self):
        self.assertEqual(set(dockerfile_flags()), set(image_jvm_flags(25)))

    def test_a_java_before_24_gets_them_without_the_options_it_refuses(self):
        refused = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"}
        self.assertEqual(set(dockerfile_flags()) - refused, set(image_jvm_flags(17)))

    def test_neither_list_sets_one_thing_twice(self):
        self.assertEqual([], repeated(dockerfile_flags()))
        self.assertEqual([], repeated(image_jvm_flags(25)))

    def test_a_setting_is_told_by_its_name_not_its_value(self):
        self.assertEqual(["InlineSmallCode", "UseG1GC"],
                         repeated(["-XX:InlineSmallCode=1000", "-XX:+UseG1GC", "-XX:-UseG1GC",
                                   "-XX:InlineSmallCode=2500", "-Xmx281m", "-Xms281m"]))
        self.assertEqual(["-Dreactor.netty.native", "-Xmx"],
                         repeated(["-Dreactor.netty.native=false", "-Dreactor.netty.native=true", "-Xmx1g", "-Xmx2g"]))


if __name__ == "__main__":
    unittest.main()
