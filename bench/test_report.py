"""Tests of bench/report.py against real ab and wrk outputs saved under bench/testdata.

testdata/quick-run is what `bench/run.sh --quick` recorded on a 2-core machine, and quick-run.md the report it wrote;
the other files are single outputs with what that run did not have: errors, keep-alive refused, other units.
testdata/zipf-quick-run is what `bench/zipf.sh --quick` recorded, and zipf-quick-run.md the section it wrote.

    python3 -m unittest discover -s bench -p 'test_*.py'
"""

import contextlib
import io
import shutil
import tempfile
import unittest
import unittest.mock
from pathlib import Path

import report

TESTDATA = Path(__file__).parent / "testdata"
QUICK_RUN = TESTDATA / "quick-run"


def output(name):
    return (TESTDATA / name).read_text()


class ParseAbTests(unittest.TestCase):

    def test_reads_requests_per_second_and_percentiles(self):
        result = report.parse_ab((QUICK_RUN / "out/gateway-hit-single.ab.txt").read_text())
        self.assertEqual(result["rps"], 873.85)
        self.assertEqual(result["rps_text"], "873.85")
        self.assertEqual(result["p50"], 52.0)
        self.assertEqual(result["p99"], 115.0)

    def test_reads_how_many_requests_kept_the_connection(self):
        self.assertEqual(report.parse_ab((QUICK_RUN / "out/gateway-hit-single.ab-k.txt").read_text())
                         ["keep_alive_requests"], 2000)
        self.assertEqual(report.parse_ab(output("ab-k-no-keepalive.txt"))["keep_alive_requests"], 0)
        self.assertIsNone(report.parse_ab((QUICK_RUN / "out/gateway-hit-single.ab.txt").read_text())
                          ["keep_alive_requests"])

    def test_refuses_non_2xx_answers(self):
        with self.assertRaises(report.MeasurementError):
            report.parse_ab(output("ab-non2xx.txt"))

    def test_refuses_failed_requests(self):
        text = (QUICK_RUN / "out/gateway-hit-single.ab.txt").read_text()
        with self.assertRaises(report.MeasurementError):
            report.parse_ab(text.replace("Failed requests:        0", "Failed requests:        3"))

    def test_refuses_an_output_without_results(self):
        with self.assertRaises(report.MeasurementError):
            report.parse_ab("Failed requests:        0\n")


class ParseWrkTests(unittest.TestCase):

    def test_reads_requests_per_second_percentiles_and_request_count(self):
        result = report.parse_wrk((QUICK_RUN / "out/gateway-hit-single.wrk.txt").read_text())
        self.assertEqual(result["rps"], 3072.08)
        self.assertEqual(result["p50"], 15.09)
        self.assertEqual(result["p99"], 41.60)
        self.assertEqual(result["requests"], 6459)
        self.assertIsNone(result["socket_errors"])

    def test_converts_microseconds_to_milliseconds(self):
        result = report.parse_wrk(output("wrk-microseconds.txt"))
        self.assertAlmostEqual(result["p50"], 0.791)
        self.assertEqual(result["p99"], 4.53)

    def test_converts_seconds_to_milliseconds(self):
        result = report.parse_wrk(output("wrk-seconds.txt"))
        self.assertEqual(result["p50"], 1110.0)
        self.assertEqual(result["p99"], 1120.0)
        self.assertEqual(result["rps"], 1.49)

    def test_converts_minutes_to_milliseconds(self):
        self.assertEqual(report.wrk_milliseconds("1.50m"), 90000.0)

    def test_keeps_the_socket_errors_line(self):
        result = report.parse_wrk(output("wrk-socket-errors.txt"))
        self.assertEqual(result["socket_errors"], "Socket errors: connect 0, read 0, write 0, timeout 12")
        self.assertEqual(result["requests"], 12)

    def test_refuses_non_2xx_answers(self):
        with self.assertRaises(report.MeasurementError):
            report.parse_wrk(output("wrk-non2xx.txt"))


class QuickRunReportTests(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.recorded = report.Run(QUICK_RUN)
        cls.markdown = report.markdown(cls.recorded)

    def test_writes_the_report_the_run_wrote(self):
        self.assertEqual(self.markdown, (TESTDATA / "quick-run.md").read_text())

    def test_has_a_row_per_case_and_tool(self):
        rows = report.results_table(self.recorded).splitlines()
        self.assertEqual(rows[0], "| case | tool | requests/s | p50 ms | p99 ms |")
        self.assertEqual(rows[1], "|---|---|---:|---:|---:|")
        # Ten cases per payload; the fresh-id ones only with wrk.
        self.assertEqual(len(rows), 2 + 2 * (6 * 3 + 4))
        self.assertIn("| gateway hit, single | ab | 874 | 52.00 | 115.00 |", rows)
        self.assertIn("| gateway hit, single | ab -k | 2670 | 17.00 | 43.00 |", rows)
        self.assertIn("| gateway hit, single | wrk | 3072 | 15.09 | 41.60 |", rows)
        self.assertIn("| nginx hit (keepalive), single | wrk | 33458 | 1.21 | 5.69 |", rows)

    def test_divides_requests_per_second_for_the_ratios(self):
        rows = report.ratios_table(self.recorded).splitlines()
        self.assertEqual(len(rows), 2 + 2 * len(report.RATIOS))
        # 873.85 / 700.23, 2670.45 / 1486.55, 3072.08 / 2330.22
        self.assertIn("| gateway hit / direct miss | single | 1.25 | 1.80 | 1.32 |", rows)
        # The real miss has no ab results: a fresh id per request needs wrk.
        self.assertIn("| gateway miss (real) / gateway pass-through | single | n/a | n/a | 0.67 |", rows)

    def test_divides_cpu_time_by_the_requests_wrk_completed(self):
        names, cpu = self.recorded.cpu_per_request()
        self.assertEqual(names, ["gateway", "gateway-near-cache", "comments-service", "memcached", "nginx"])
        # (3768 - 3451) ticks at 100 per second, over 6459 requests.
        self.assertAlmostEqual(cpu["gateway-hit-single"]["gateway"], 317 * 10000 / 6459)
        self.assertIn("| gateway hit, single | 490.8 | 3.1 | 117.7 | 12.4 | 0.0 |", self.markdown.splitlines())

    def test_reports_the_peak_rss_over_the_run_and_per_case(self):
        overall, by_case = self.recorded.peak_rss()
        self.assertEqual(overall, {"gateway": "234", "gateway-near-cache": "230", "comments-service": "208",
                                   "memcached": "12"})
        self.assertEqual(by_case["gateway-hit-single"],
                         {"gateway": "231", "gateway-near-cache": "187", "comments-service": "197", "memcached": "9"})

    def test_summarises_memcached(self):
        self.assertEqual(report.memcached_summary(self.recorded),
                         "-m 1024: 2360 items, 3 MB of 1024 MB used at the end; 0 evicted during the run")

    def test_describes_the_set_up(self):
        lines = report.setup_section(self.recorded).splitlines()
        self.assertEqual(lines[0], "- machine: 2 cores, Intel(R) Xeon(R) Processor @ 2.80GHz, 24 GiB")
        self.assertEqual(lines[5], "- memcached 1.6.18, nginx/1.22.1, ab 2.3, wrk debian/4.1.0-3+b2")
        self.assertEqual(lines[6], "- mode: quick (about 2 s per measurement, no warm-up); took 124 s")

    def test_gives_the_chart_what_the_tools_printed(self):
        lines = report.chart_data(self.recorded).splitlines()
        self.assertEqual(len(lines), 20)
        self.assertEqual(lines[0], "direct miss, single\t700.23\t1486.55\t2330.22")
        self.assertEqual(lines[1], "direct miss (fresh ids), single\t?\t?\t3438.20")


class NotesTests(unittest.TestCase):
    """A run made of saved outputs that the quick run did not have."""

    def setUp(self):
        self.directory = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.directory)
        shutil.copytree(QUICK_RUN, self.directory, dirs_exist_ok=True)
        shutil.copy(TESTDATA / "ab-k-no-keepalive.txt", self.directory / "out/gateway-pass-single.ab-k.txt")
        shutil.copy(TESTDATA / "wrk-socket-errors.txt", self.directory / "out/gateway-hit-single.wrk.txt")
        measurements = self.directory / "measurements.tsv"
        measurements.write_text(measurements.read_text().replace(
            "gateway-hit-collection\tgateway hit, collection\tab -k\tout/gateway-hit-collection.ab-k.txt",
            "gateway-hit-collection\tgateway hit, collection\tab -k\t-"))
        with (self.directory / "setup.tsv").open("a") as setup:
            setup.write("note\tgnuplot is not available: no chart is drawn\n")
        self.recorded = report.Run(self.directory)

    def test_notes_what_the_run_and_the_outputs_say_in_the_order_they_happened(self):
        notes = report.markdown(self.recorded).split("\n## Notes\n\n")[1].splitlines()
        self.assertEqual(notes, [
            "- gnuplot is not available: no chart is drawn",
            "- gateway pass-through, single: ab -k kept no connection alive: the server closes after each answer to "
            "HTTP/1.0",
            "- gateway hit, single (wrk): wrk Socket errors: connect 0, read 0, write 0, timeout 12",
            "- gateway hit, collection: ab -k skipped: the answer to an HTTP/1.0 keep-alive request neither says "
            '"Connection: keep-alive" nor closes the connection, so ab would wait for its timeout',
        ])

    def test_a_skipped_measurement_is_not_available(self):
        rows = report.results_table(self.recorded).splitlines()
        self.assertIn("| gateway hit, collection | ab -k | n/a | n/a | n/a |", rows)
        self.assertIn("| gateway hit / direct miss | collection | 0.75 | n/a | 0.49 |",
                      report.ratios_table(self.recorded).splitlines())
        self.assertIn("gateway hit, collection\t1878.04\t?\t3941.94", report.chart_data(self.recorded).splitlines())

    def test_a_report_without_notes_has_no_notes_section(self):
        self.assertNotIn("## Notes", report.markdown(report.Run(QUICK_RUN)))


class SteadyStateTests(unittest.TestCase):
    """A full run's wrk windows, made of the quick run's with other windows recorded."""

    def setUp(self):
        self.directory = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.directory)
        shutil.copytree(QUICK_RUN, self.directory, dirs_exist_ok=True)
        (self.directory / "steady.tsv").write_text(
            "gateway-real-miss-single\tgateway miss (real), single\tsteady\t45\t"
            "120.5,480,900,1500,2100,2500,2800,2950,2990\n"
            "gateway-pass-single\tgateway pass-through, single\tcap\t120\t" + ",".join(["400", "500"] * 12) + "\n")
        self.recorded = report.Run(self.directory)

    def test_says_per_case_whether_and_when_it_became_steady(self):
        section = report.markdown(self.recorded).split("\n## Steady state\n\n")[1]
        self.assertIn("| gateway miss (real), single | yes, after 45 s | "
                      "120, 480, 900, 1500, 2100, 2500, 2800, 2950, 2990 |", section.splitlines())
        self.assertIn("| gateway pass-through, single | no: still changing at the cap, 120 s | "
                      + ", ".join(["400", "500"] * 12) + " |", section.splitlines())

    def test_three_windows_in_a_row_within_five_percent_are_steady(self):
        self.assertEqual(report.steady(["900", "2000", "2050", "2010"]), 0)
        # Two windows on one step of the JIT's climb agree, and the next shows the climb goes on.
        self.assertEqual(report.steady(["375", "822", "851"]), 1)
        self.assertEqual(report.steady(["2000", "2050"]), 1)

    def test_a_quick_run_says_it_waited_for_nothing(self):
        self.assertIn("Quick run: one 2 s wrk window per case", report.steady_section(report.Run(QUICK_RUN)))

    def test_lists_the_measurements_in_the_order_of_the_tools(self):
        measurements = self.directory / "measurements.tsv"
        lines = measurements.read_text().splitlines(keepends=True)
        # wrk ran first, as bench/run.sh runs it now.
        lines[0:3] = [lines[2], lines[0], lines[1]]
        measurements.write_text("".join(lines))
        tools = [tool for case, _, tool, _ in report.Run(self.directory).measurements if case == "direct-miss-single"]
        self.assertEqual(tools, ["ab", "ab -k", "wrk"])


class PairedRoundsTests(unittest.TestCase):
    """Alternating rounds recorded beside the quick run."""

    def setUp(self):
        self.directory = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.directory)
        shutil.copytree(QUICK_RUN, self.directory, dirs_exist_ok=True)
        (self.directory / "paired.tsv").write_text(
            "gateway-pass-single\tspring-pass-single\t900,1000,950\t1000,1000,1000\n"
            "gateway-hit-collection\tnginx-keepalive-hit-collection\t500,400\t1000,0\n")
        self.recorded = report.Run(self.directory)

    def test_gives_the_median_of_the_rounds_ratios_and_their_range(self):
        section = report.markdown(self.recorded).split("\n## Ratios in alternating rounds\n\n")[1]
        self.assertIn("| gateway pass-through / spring pass-through | single | 3 | 0.95 | 0.90-1.00 | 950 / 1000 |",
                      section.splitlines())

    def test_leaves_out_a_round_whose_denominator_answered_nothing(self):
        section = report.paired_section(self.recorded)
        self.assertIn("| gateway hit / nginx hit (keepalive) | collection | 1 | 0.50 | 0.50-0.50 | 450 / 500 |",
                      section.splitlines())

    def test_a_run_without_rounds_has_no_section(self):
        self.assertNotIn("## Ratios in alternating rounds", report.markdown(report.Run(QUICK_RUN)))

    def test_judges_a_target_by_its_rounds_where_it_has_them(self):
        rows = report.targets_section(full(self.directory)).splitlines()
        # The quick run's pass-through pair has no case (no Spring peer in it): the rounds alone, 0.95 is met.
        self.assertIn("| gateway pass-through / spring pass-through, single | at least 0.95 | n/a | 0.95 | yes |", rows)
        # Measured once at 3072 / 26467 = 0.12 of nginx; its rounds' median, 0.50, is what counts.
        self.assertIn("| gateway hit / nginx hit (keepalive), collection | at least 0.90 | 0.15 | 0.50 | no |", rows)


def full(directory):
    """The run recorded in directory, as if it had been a full one: only a full run is held to the targets."""
    setup = directory / "setup.tsv"
    setup.write_text(setup.read_text().replace("quick\ttrue\n", "quick\tfalse\n"))
    return report.Run(directory)


class TargetsTests(unittest.TestCase):

    def setUp(self):
        self.directory = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.directory)
        shutil.copytree(QUICK_RUN, self.directory, dirs_exist_ok=True)

    def test_judges_a_target_by_its_cases_without_rounds(self):
        rows = report.targets_section(full(self.directory)).splitlines()
        # 299 / 449 requests/s.
        self.assertIn("| gateway miss (real) / gateway pass-through, single | at least 0.85 | 0.67 | n/a | no |", rows)

    def test_holds_the_gateways_cpu_per_hit_to_its_aim(self):
        rows = report.targets_section(full(self.directory)).splitlines()
        # The gateway's 317 ticks of 10 ms over wrk's 6,459 hits.
        self.assertIn("| gateway CPU per hit, µs, single | at most 35 | 490.79 | n/a | no |", rows)
        cpu = self.directory / "cpu.tsv"
        cpu.write_text(cpu.read_text().replace("gateway-hit-single\tafter\tgateway\t3768\n",
                                               "gateway-hit-single\tafter\tgateway\t3473\n"))
        self.assertIn("| gateway CPU per hit, µs, single | at most 35 | 34.06 | n/a | yes |",
                      report.targets_section(report.Run(self.directory)).splitlines())

    def test_judges_nothing_in_a_quick_run(self):
        rows = report.targets_section(report.Run(QUICK_RUN)).splitlines()
        self.assertIn("| gateway miss (real) / gateway pass-through, single | at least 0.85 | 0.67 | n/a "
                      "| not judged: quick run |", rows)

    def test_leaves_out_a_target_the_run_did_not_measure(self):
        section = report.targets_section(report.Run(QUICK_RUN))
        self.assertNotIn("| gateway pass-through / spring pass-through", section)
        self.assertNotIn("| warm-up", section)

    def test_a_run_that_measured_no_target_has_no_section(self):
        directory = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, directory)
        shutil.copytree(QUICK_RUN, directory, dirs_exist_ok=True)
        (directory / "measurements.tsv").write_text("")
        self.assertNotIn("## Targets", report.markdown(report.Run(directory)))


class VarnishTests(unittest.TestCase):
    """The quick run with a Varnish hit beside nginx's: the same outputs, recorded under the case varnish-hit."""

    def setUp(self):
        self.directory = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.directory)
        shutil.copytree(QUICK_RUN, self.directory, dirs_exist_ok=True)
        with (self.directory / "measurements.tsv").open("a") as measurements:
            for tool, name in (("ab", "ab"), ("ab -k", "ab-k"), ("wrk", "wrk")):
                measurements.write(f"varnish-hit-single\tvarnish hit, single\t{tool}\t"
                                   f"out/nginx-keepalive-hit-single.{name}.txt\n")
        cpu = (self.directory / "cpu.tsv").read_text().splitlines(keepends=True)
        # varnishd's manager with its cache process, read as one, as nginx's master with its workers is.
        (self.directory / "cpu.tsv").write_text("".join(
            cpu + [line.replace("nginx-keepalive-hit", "varnish-hit") for line in cpu
                   if line.startswith("nginx-keepalive-hit-single\t")]
            + ["varnish-hit-single\tbefore\tvarnish\t50\n", "varnish-hit-single\tafter\tvarnish\t250\n"]))
        (self.directory / "paired.tsv").write_text("gateway-hit-single\tvarnish-hit-single\t900,950\t1000,1000\n")
        with (self.directory / "setup.tsv").open("a") as setup:
            setup.write("varnish\tvarnishd (varnish-7.1.1 revision 7cee1c581bead20e88d101ab3d72afb29f14d87a)\n")
        self.recorded = full(self.directory)

    def test_divides_the_gateways_hit_by_varnishs(self):
        # The same outputs as nginx's with keepalive: the same ratios.
        self.assertIn("| gateway hit / varnish hit | single | 0.12 | 0.08 | 0.09 |",
                      report.ratios_table(self.recorded).splitlines())
        self.assertIn("| gateway hit / varnish hit | single | 2 | 0.93 | 0.90-0.95 | 925 / 1000 |",
                      report.paired_section(self.recorded).splitlines())

    def test_holds_the_gateways_hit_to_nine_tenths_of_varnishs(self):
        self.assertIn("| gateway hit / varnish hit, single | at least 0.90 | 0.09 | 0.93 | yes |",
                      report.targets_section(self.recorded).splitlines())

    def test_gives_varnishds_cpu_per_request(self):
        names, cpu = self.recorded.cpu_per_request()
        self.assertEqual(names[-1], "varnish")
        # (250 - 50) ticks at 100 per second, over the 70,266 requests of the wrk output.
        self.assertAlmostEqual(cpu["varnish-hit-single"]["varnish"], 200 * 10000 / 70266)
        self.assertNotIn("varnish", cpu["nginx-keepalive-hit-single"])

    def test_names_varnishs_version_in_the_set_up(self):
        self.assertEqual(report.setup_section(self.recorded).splitlines()[5],
                         "- memcached 1.6.18, nginx/1.22.1, varnish 7.1.1, ab 2.3, wrk debian/4.1.0-3+b2")
        setup = self.directory / "setup.tsv"
        setup.write_text("".join(line for line in setup.read_text().splitlines(keepends=True)
                                 if not line.startswith("varnish\t")) + "varnish\t\n")
        self.assertEqual(report.setup_section(report.Run(self.directory)).splitlines()[5],
                         "- memcached 1.6.18, nginx/1.22.1, no varnish, ab 2.3, wrk debian/4.1.0-3+b2")


class WarmUpTests(unittest.TestCase):
    """A warm-up of 12 s recorded beside the quick run: per-second counts, then the steady case's windows."""

    def setUp(self):
        self.directory = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.directory)
        shutil.copytree(QUICK_RUN, self.directory, dirs_exist_ok=True)
        with (self.directory / "setup.tsv").open("a") as setup:
            setup.write("warm_up_seconds\t12\n")
        per_second = [100, 200, 400, 500, 800, 1000, 1000, 1000, 1000, 1000, 2000, 2000]
        (self.directory / "out/warm-up-jar.txt").write_text(
            (QUICK_RUN / "out/gateway-real-miss-single.wrk.txt").read_text()
            + "".join(f"{second}\t{count}\n" for second, count in enumerate(per_second, 1)))
        (self.directory / "warm-up.tsv").write_text(
            "jar\tjar, Java 17\t9400\tout/warm-up-jar.txt\twarm-up-jar\n")
        with (self.directory / "steady.tsv").open("a") as steady:
            steady.write("warm-up-jar\twarm-up (jar, Java 17), steady\tsteady\t10\t1900,2000\n")
        self.recorded = report.Run(self.directory)

    def test_reads_the_answers_of_each_second(self):
        self.assertEqual(report.parse_per_second("Requests/sec: 3.00\n1\t5\n3\t7\n"), [5, 0, 7])

    def test_gives_start_to_ready_and_the_first_seconds_as_fractions_of_steady(self):
        section = report.markdown(self.recorded).split("\n## Warm-up\n\n")[1]
        self.assertIn("| jar, Java 17 | 9.4 | 2000 | 0.05 | 0.10 | 0.20 | 0.25 | 0.40 |", section.splitlines())

    def test_says_how_long_the_backend_was_asked_first_where_it_was(self):
        section = report.markdown(self.recorded).split("\n## Warm-up\n\n")[1]
        self.assertNotIn("asked the same", section)
        with (self.directory / "setup.tsv").open("a") as setup:
            setup.write("backend_warm_seconds\t20\n")
        section = report.markdown(report.Run(self.directory)).split("\n## Warm-up\n\n")[1]
        self.assertIn("comments-service was asked the same\nstraight for 20 s", section)

    def test_gives_each_later_window_as_a_fraction_of_steady(self):
        section = report.markdown(self.recorded).split("\n## Warm-up\n\n")[1]
        # 5-10 s: (1000 * 5) / 5 / 2000; 10-15 s is not whole.
        self.assertIn("| gateway | 5-10 s |", section)
        self.assertIn("| jar, Java 17 | 0.50 |", section.splitlines())

    def test_gives_the_chart_each_second(self):
        lines = report.warm_up_chart_data(self.recorded).splitlines()
        self.assertEqual(lines[0], "second\tjar, Java 17")
        # 100 answers in the first second of a gateway steady at 2000/s.
        self.assertEqual(lines[1], "1\t0.050")
        self.assertEqual(len(lines), 13)

    def test_holds_only_the_image_to_the_warm_up_targets(self):
        self.assertNotIn("| warm-up", report.targets_section(self.recorded))
        warm_up = self.directory / "warm-up.tsv"
        warm_up.write_text(warm_up.read_text().replace("jar\tjar, Java 17\t9400", "image-1\timage x\t9400"))
        rows = report.targets_section(full(self.directory)).splitlines()
        # (100 + 200 + 400 + 500 + 800) / 5 / 2000; then 5-10 s, (1000 * 5) / 5 / 2000, the one later window that
        # is whole.
        self.assertIn("| warm-up, image x: first 5 s | at least 0.80 | 0.20 | n/a | no |", rows)
        self.assertIn("| warm-up, image x: every 5 s window from 5 s on | at least 0.80 | 0.50 | n/a | no |", rows)
        self.assertIn("| warm-up, image x: start to ready, s | at most 60 | 9.40 | n/a | yes |", rows)

    def sample_the_gauge(self):
        """The cold gateway's and memcached's CPU ticks through the minute, and over the steady window's 603
        requests: 60 ticks of the gateway's, 6 of memcached's."""
        (self.directory / "out/warm-up-jar-cpu.tsv").write_text(
            "ms\twarm-up-gateway\tmemcached\tcomments-service\n0\t0\t0\t0\n4000\t320\t32\t1\n"
            "6000\t500\t50\t1\n10000\t1390\t90\t2\nbroken\n")
        shutil.copy(QUICK_RUN / "out/gateway-real-miss-single.wrk.txt", self.directory / "out/warm-up-jar.wrk.txt")
        with (self.directory / "cpu.tsv").open("a") as cpu:
            for name, before, after in (("warm-up-gateway", 1000, 1060), ("memcached", 500, 506),
                                        ("comments-service", 900, 990)):
                cpu.write(f"warm-up-jar\tbefore\t{name}\t{before}\nwarm-up-jar\tafter\t{name}\t{after}\n")
        return report.Run(self.directory)

    def test_gauges_the_machine_speed_in_each_window_by_memcached_cpu_per_request(self):
        recorded = self.sample_the_gauge()
        counts = recorded.warm_ups[0][3]
        steady = 6 / 100 / 603
        # 41 ticks by the 5th second (32 at 4 s, 50 at 6 s) over its 2000 requests; 90 - 41 over the next 5000.
        self.assertAlmostEqual(report.machine_speed(recorded, "jar", counts, "warm-up-jar", 0),
                               steady / (41 / 100 / 2000))
        self.assertAlmostEqual(report.machine_speed(recorded, "jar", counts, "warm-up-jar", 5),
                               steady / (49 / 100 / 5000))
        # The samples end at 10 s.
        self.assertIsNone(report.machine_speed(recorded, "jar", counts, "warm-up-jar", 10))

    def test_gives_the_gateway_cpu_against_the_gauge_as_a_fraction_of_steady(self):
        recorded = self.sample_the_gauge()
        counts = recorded.warm_ups[0][3]
        # Steady, the gateway spent 10 ticks to memcached's 1; in the first 5 s 410 (320 at 4 s, 500 at 6 s) to 41,
        # the same; then 980 to 49, twice as much.
        self.assertAlmostEqual(report.gateway_own_cost(recorded, "jar", counts, "warm-up-jar", 0), 1.0)
        self.assertAlmostEqual(report.gateway_own_cost(recorded, "jar", counts, "warm-up-jar", 5), 2.0)
        section = report.markdown(recorded).split("\n## Warm-up\n\n")[1]
        self.assertIn("| gateway | gauge | 0-5 s | 5-10 s |", section)
        # Speed 0.49 (the first 5 s) and 1.02.
        self.assertIn("| jar, Java 17 | memcached | 0.49 / 1.00 | 1.02 / 2.00 |", section.splitlines())
        # The cold gateway is no column of the CPU table, whose cases it is not part of.
        self.assertNotIn("warm-up-gateway", recorded.cpu_per_request()[0])

    def test_gauges_the_pass_through_by_comments_service(self):
        self.assertEqual(report.warm_up_gauge("image-1-no_cache"), "comments-service")
        self.assertEqual(report.warm_up_gauge("image-1-cached"), "memcached")
        self.assertEqual(report.warm_up_gauge("jar"), "memcached")

    def test_leaves_the_speed_out_without_samples(self):
        self.assertNotIn("gauge", report.markdown(self.recorded))

    def test_takes_the_zipf_section_in_before_the_memcached_one(self):
        self.assertNotIn("## Zipf", report.markdown(self.recorded))
        (self.directory / "zipf.md").write_text("## Zipf-distributed keys\n\nsome figures\n")
        text = report.markdown(full(self.directory))
        self.assertIn("\n## Zipf-distributed keys\n\nsome figures\n", text)
        self.assertLess(text.index("## Zipf"), text.index("## memcached"))

    def test_a_run_without_warm_up_has_no_section(self):
        self.assertNotIn("## Warm-up", report.markdown(report.Run(QUICK_RUN)))


class CheckTests(unittest.TestCase):

    def check(self, tool, path, command="check"):
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = report.main(["report.py", command, tool, str(path)])
        return status, stdout.getvalue(), stderr.getvalue()

    def test_prints_one_line_for_a_good_measurement(self):
        status, stdout, _ = self.check("wrk", QUICK_RUN / "out/gateway-hit-single.wrk.txt")
        self.assertEqual(status, 0)
        self.assertEqual(stdout, "    wrk           3072 req/s   p50   15.09 ms   p99   41.60 ms\n")

    def test_fails_showing_the_output_on_errors(self):
        status, stdout, stderr = self.check("ab", TESTDATA / "ab-non2xx.txt")
        self.assertEqual(status, 1)
        self.assertEqual(stdout, "")
        self.assertIn("Non-2xx responses:      200", stderr)

    def test_gives_requests_per_second_alone_and_fails_as_check_on_errors(self):
        status, stdout, _ = self.check("wrk", QUICK_RUN / "out/gateway-hit-single.wrk.txt", command="rps")
        self.assertEqual((status, stdout), (0, "3072.08\n"))
        status, stdout, stderr = self.check("wrk", TESTDATA / "wrk-non2xx.txt", command="rps")
        self.assertEqual((status, stdout), (1, ""))
        self.assertIn("Non-2xx or 3xx responses", stderr)

    def test_refuses_an_unknown_command(self):
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(report.main(["report.py", "summary", str(QUICK_RUN)]), 2)


def head(*lines, status="HTTP/1.1 200 OK"):
    """A response head as curl -D - writes it."""
    return "".join(f"{line}\r\n" for line in (status,) + lines) + "\r\n"


# Thu, 03 Dec 2026 22:38:25 GMT
NOW = 1796337505.5


class HitTests(unittest.TestCase):
    """The rules by which bench/run.sh tells that a cache answered, applied to the heads of its answers."""

    def test_a_gateway_hit_says_x_cache_hit(self):
        self.assertIsNone(report.not_a_hit("x-cache", head("X-Cache: HIT", "Content-Length: 86"), NOW))
        self.assertEqual(report.not_a_hit("x-cache", head("x-cache: MISS"), NOW), "X-Cache is MISS, not HIT")
        self.assertEqual(report.not_a_hit("x-cache", head("Content-Length: 86"), NOW), "X-Cache is missing, not HIT")

    def test_a_local_response_cache_hit_carries_the_date_of_the_stored_answer(self):
        self.assertIsNone(report.not_a_hit("stored-date", head("Date: Thu, 03 Dec 2026 22:38:24 GMT"), NOW))
        self.assertEqual(report.not_a_hit("stored-date", head("Date: Thu, 03 Dec 2026 22:38:25 GMT"), NOW),
                         "Date Thu, 03 Dec 2026 22:38:25 GMT is of this second: not a stored answer")
        self.assertEqual(report.not_a_hit("stored-date", head("X-Cache: HIT"), NOW),
                         "no Date to tell a stored answer by: None")

    def test_an_nginx_hit_from_memcached_has_no_cache_control(self):
        self.assertIsNone(report.not_a_hit("no-cache-control", head("Content-Type: application/json"), NOW))
        self.assertEqual(report.not_a_hit("no-cache-control", head("Cache-Control: public, max-age=3600"), NOW),
                         "it has Cache-Control: nginx's @fallback answered it")

    def test_a_varnish_hit_names_two_requests_in_x_varnish(self):
        self.assertIsNone(report.not_a_hit("x-varnish", head("X-Varnish: 32773 9", "Age: 0"), NOW))
        self.assertEqual(report.not_a_hit("x-varnish", head("X-Varnish: 8", "Age: 0"), NOW),
                         "X-Varnish is 8, not a hit's two ids")
        self.assertEqual(report.not_a_hit("x-varnish", head("Age: 0"), NOW), "X-Varnish is missing, not a hit's two ids")

    def test_a_hit_is_a_200(self):
        self.assertEqual(report.not_a_hit("x-cache", head("X-Cache: HIT", status="HTTP/1.1 404 Not Found"), NOW),
                         "status 404, not 200")
        self.assertEqual(report.not_a_hit("x-cache", "", NOW), "no answer")
        self.assertIsNone(report.not_a_hit("x-cache", head(status="HTTP/1.1 100 Continue") + head("X-Cache: HIT"),
                                           NOW))

    def test_the_command_reads_the_head_on_stdin_and_says_why_it_is_not_a_hit(self):
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout), unittest.mock.patch("sys.stdin", io.StringIO(head("X-Cache: MISS"))):
            self.assertEqual(report.main(["report.py", "hit", "x-cache"]), 1)
        self.assertEqual(stdout.getvalue(), "X-Cache is MISS, not HIT\n")
        with unittest.mock.patch("sys.stdin", io.StringIO(head("X-Cache: HIT"))):
            self.assertEqual(report.main(["report.py", "hit", "x-cache"]), 0)


ZIPF_RUN = TESTDATA / "zipf-quick-run"


class ZipfTests(unittest.TestCase):
    """bench/zipf.sh's section, from what `bench/zipf.sh --quick` recorded (zipf-quick-run) and wrote
    (zipf-quick-run.md) on a 2-core machine."""

    def setUp(self):
        self.directory = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.directory)
        shutil.copytree(ZIPF_RUN, self.directory, dirs_exist_ok=True)

    def run_report(self):
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = report.main(["report.py", "zipf", str(self.directory)])
        return status, stdout.getvalue(), stderr.getvalue()

    def replace(self, name, old, new):
        path = self.directory / name
        text = path.read_text()
        self.assertIn(old, text)
        path.write_text(text.replace(old, new))

    def test_writes_the_section_the_run_wrote(self):
        status, stdout, stderr = self.run_report()
        self.assertEqual((status, stderr), (0, ""))
        self.assertEqual(stdout, (TESTDATA / "zipf-quick-run.md").read_text())

    def test_reads_wrk_and_the_counts_of_zipf_lua(self):
        figures = report.parse_zipf_wrk((ZIPF_RUN / "nginx.wrk.txt").read_text())
        self.assertEqual((figures["rps"], figures["p50"], figures["p99"]), (31564.35, 1.4, 3.5))
        self.assertEqual(figures["requests"], 97775)
        self.assertEqual(figures["failed"], 0)
        self.assertEqual(figures["zipf"]["distinct"], 8488)
        self.assertEqual(figures["zipf"]["checksum"], 480755725)
        # zipf.lua counts the requests it made, a few of which were still in flight when wrk stopped.
        self.assertEqual(sum(figures["classes"].values()), figures["zipf"]["requests"])
        self.assertEqual((figures["classes"][0], figures["classes"][199]), (278, 709))

    def test_draws_the_size_classes_zipf_lua_drew(self):
        # The checksum is the one LuaJIT computed in wrk over the same 10,000 ranks.
        classes = report.zipf_classes(10000, 1, 2000.0, 1.2)
        self.assertEqual(report.zipf_checksum(classes), 480755725)
        self.assertEqual(classes[:4], [71, 65, 107, 161])
        self.assertEqual(report.ZipfRun(ZIPF_RUN).classes, classes)

    def test_spaces_the_size_classes_evenly_in_log_size_from_100_bytes_to_50_kb(self):
        sizes = [report.zipf_class_bytes(size_class) for size_class in range(report.ZIPF_CLASSES)]
        self.assertEqual((sizes[0], sizes[1], sizes[-1]), (100, 103, 50000))
        self.assertEqual(sizes, sorted(set(sizes)))

    def test_takes_the_percentiles_of_sizes_as_the_smallest_size_that_reaches_them(self):
        figures = report.zipf_size_figures({100: 5, 1000: 4, 50000: 1})
        self.assertEqual((figures["median"], figures["p90"], figures["max"]), (100, 1000, 50000))
        self.assertAlmostEqual(figures["mean"], (500 + 4000 + 50000) / 10)

    def test_counts_non_2xx_answers_and_socket_errors_as_failed(self):
        self.assertEqual(report.parse_zipf_wrk(output("wrk-non2xx.txt"))["failed"], 706)
        self.assertEqual(report.parse_zipf_wrk(output("wrk-socket-errors.txt"))["failed"], 12)

    def test_tells_timeouts_from_other_socket_errors_and_non_2xx_answers(self):
        figures = report.parse_zipf_wrk((ZIPF_RUN / "gateway.wrk.txt").read_text().replace(
            "  3249 requests in 3.01s, 12.63MB read\n",
            "  3249 requests in 3.01s, 12.63MB read\n  Socket errors: connect 1, read 2, write 0, timeout 4\n"
            "  Non-2xx or 3xx responses: 8\n"))
        self.assertEqual(figures["failures"], {"non-2xx": 8, "socket errors": 3, "timeouts": 4})
        self.assertEqual(figures["failed"], 15)

    def test_takes_a_gateways_hit_ratio_from_its_lookups_over_every_route(self):
        run = report.ZipfRun(ZIPF_RUN)
        self.assertEqual(run.lookups("gateway")["hit"], 2236)
        self.assertAlmostEqual(run.figures("gateway", "gateway")["hit_ratio"], 2236 / (2236 + 1048 + 12))

    def test_takes_nginxs_hit_ratio_from_memcached_gets(self):
        figures = report.ZipfRun(ZIPF_RUN).figures("nginx", "memcached")
        self.assertAlmostEqual(figures["hit_ratio"], 0.741, places=3)
        self.assertAlmostEqual(figures["operations_per_request"], 1.0, places=2)

    def test_gives_each_server_its_share_of_the_operations(self):
        figures = report.ZipfRun(ZIPF_RUN).figures("nginx", "memcached")
        self.assertEqual(sorted(figures["shares"]), [1, 2, 3])
        self.assertAlmostEqual(sum(figures["shares"].values()), 1.0)
        self.assertAlmostEqual(figures["shares"][2], 0.385, places=3)

    def test_knows_the_shares_of_zipfs_law(self):
        self.assertEqual(report.zipf_shares(1, 1.0), (1.0, 1.0))
        hottest, top = report.zipf_shares(100000, 1.0)
        self.assertAlmostEqual(hottest, 0.0827, places=4)
        self.assertAlmostEqual(top, 0.619, places=3)

    def test_fails_when_more_answers_failed_than_the_bound(self):
        self.replace("gateway.wrk.txt", "  3249 requests in 3.01s, 12.63MB read\n",
                     "  3249 requests in 3.01s, 12.63MB read\n  Non-2xx or 3xx responses: 4\n")
        status, stdout, stderr = self.run_report()
        self.assertEqual(status, 1)
        self.assertIn("gateway: 4 of 3249 answers failed (non-2xx 4; a timeout is an answer slower than wrk's 2s), "
                      "more than 0.1%", stderr)
        self.assertIn("### Checks that failed", stdout)

    def test_names_the_kinds_of_failed_answers_and_the_timeout_of_the_run(self):
        self.replace("setup.tsv", "max_errors\t0.001\n", "max_errors\t0.001\ntimeout\t10s\n")
        self.replace("gateway.wrk.txt", "  3249 requests in 3.01s, 12.63MB read\n",
                     "  3249 requests in 3.01s, 12.63MB read\n  Socket errors: connect 0, read 1, write 0, timeout 3\n")
        status, stdout, stderr = self.run_report()
        self.assertEqual(status, 1)
        self.assertIn("gateway: 4 of 3249 answers failed (socket errors 1, timeouts 3; a timeout is an answer slower "
                      "than wrk's 10s), more than 0.1%", stderr)
        self.assertIn("An answer slower than 10s counts as\nfailed (wrk's `--timeout`).", stdout)

    def test_passes_failed_answers_within_the_bound(self):
        self.replace("nginx.wrk.txt", "  97775 requests in 3.10s, 365.26MB read\n",
                     "  97775 requests in 3.10s, 365.26MB read\n"
                     "  Socket errors: connect 0, read 0, write 0, timeout 9\n")
        self.assertEqual(self.run_report()[0], 0)

    def test_fails_when_a_target_had_no_hit(self):
        self.replace("near-cache.after.prom", 'result="hit",route="zipf-items"} 5143.0',
                     'result="hit",route="zipf-items"} 1509.0')
        status, _, stderr = self.run_report()
        self.assertEqual(status, 1)
        self.assertIn("gateway with near-cache: no hit", stderr)

    def test_fails_when_a_server_got_no_operation(self):
        before = (self.directory / "nginx.before.stats").read_text()
        kept = [line for line in (self.directory / "nginx.after.stats").read_text().splitlines()
                if not line.startswith("3\t")]
        moved = [line for line in before.splitlines() if line.startswith("3\t")]
        (self.directory / "nginx.after.stats").write_text("\n".join(kept + moved) + "\n")
        status, _, stderr = self.run_report()
        self.assertEqual(status, 1)
        self.assertEqual(stderr, "zipf: nginx (memcached_pass, same ring): memcached 127.0.0.1:31113 got no "
                                 "operation\n")

    def test_fails_when_zipf_lua_drew_other_sizes_than_the_report_knows(self):
        self.replace("setup.tsv", "size_sigma\t1.2\n", "size_sigma\t1.0\n")
        status, _, stderr = self.run_report()
        self.assertEqual(status, 1)
        self.assertIn("gateway: zipf.lua's size classes (checksum 480755725) are not report.py's", stderr)

    def test_gives_the_size_mix_of_the_keys_and_of_the_requests(self):
        stdout = self.run_report()[1]
        self.assertIn("| the 10,000 keys | 2,005 | 3,996 | 9,259 | 50,000 |", stdout)
        self.assertIn("| the requests of the measured runs | 1,715 | 3,709 | 8,975 | 50,000 |", stdout)
        self.assertIn("| 100 B to 1 KB | 2,838 | 28.4% | 38.8% |", stdout)
        self.assertIn("| 16 to 50 KB | 387 | 3.9% | 2.4% |", stdout)

    def test_gives_each_servers_bytes_and_evictions_and_the_sizes_of_its_hottest_keys(self):
        self.replace("end.stats", "2\tevictions\t0\n", "2\tevictions\t17\n")
        stdout = self.run_report()[1]
        self.assertIn("| `127.0.0.1:31112` | 970 | 31.1% | 3.7 | 17 | 1: 10.2%, 918 B; 3: 3.4%, 2,826 B; "
                      "8: 1.3%, 15,261 B |", stdout)

    def test_prints_one_line_per_target_for_the_console(self):
        self.assertEqual(report.zipf_line(report.ZipfRun(ZIPF_RUN), "nginx"),
                         "    nginx (memcached_pass, same ring): 31564 req/s, p50 1.40 ms, p99 3.50 ms, hit ratio "
                         "74.1%, servers 33.3% 38.5% 28.2%, failed 0")


if __name__ == "__main__":
    unittest.main()
