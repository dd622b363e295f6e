# Answers per second of cold gateways, from the moment each is ready, as fractions of each one's steady throughput;
# one line per gateway, from the table bench/report.py writes (second, then one column per gateway, with a header
# line).
# Called as: gnuplot -e "datafile='...'; outfile='....png'; subtitle='...'; columns=N" warm-up.gp
set terminal pngcairo size 1400,600 noenhanced font "sans,11" background rgb "white"
set output outfile
set title "Answers per second of a cold gateway from ready on, as a fraction of its steady throughput\n".subtitle
set datafile separator "\t"
set datafile missing "?"
set key autotitle columnheader outside right top vertical Left reverse
set xlabel "seconds since ready"
set ylabel "fraction of steady requests/s"
set yrange [0:*]
set grid ytics
plot for [i=2:columns] datafile using 1:i with linespoints pointsize 0.5
