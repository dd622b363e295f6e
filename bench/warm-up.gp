# Answers per second of cold gateways under real misses, from the moment each is ready; one line per gateway, from
# the table bench/report.py writes (second, then one column per gateway, with a header line).
# Called as: gnuplot -e "datafile='...'; outfile='....png'; subtitle='...'; columns=N" warm-up.gp
set terminal pngcairo size 1400,600 noenhanced font "sans,11" background rgb "white"
set output outfile
set title "Real misses per second of a cold gateway, from ready on\n".subtitle
set datafile separator "\t"
set datafile missing "?"
set key autotitle columnheader outside right top vertical Left reverse
set xlabel "seconds since ready"
set ylabel "answers/s"
set yrange [0:*]
set grid ytics
plot for [i=2:columns] datafile using 1:i with linespoints pointsize 0.5
