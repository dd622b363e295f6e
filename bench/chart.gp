# Requests per second per case, one bar per tool, from the table bench/run.sh writes (label, ab, ab -k, wrk).
# Called as: gnuplot -e "datafile='...'; outfile='....png'; subtitle='...'" chart.gp
# PNG from cairo: it looks the same in every viewer, rotated labels included.
set terminal pngcairo size 1400,700 noenhanced font "sans,11" background rgb "white"
set output outfile
set title "Requests per second, higher is better\n".subtitle
set datafile separator "\t"
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel "requests/s"
set yrange [0:*]
set grid ytics
set xtics rotate by 35 right nomirror
set key outside right top vertical Left reverse
set bmargin 10
set lmargin 12
plot datafile using 2:xtic(1) title "ab (a connection per request)", \
     '' using 3 title "ab -k (keep-alive)", \
     '' using 4 title "wrk (keep-alive)"
