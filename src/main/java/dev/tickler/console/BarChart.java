package dev.tickler.console;

import java.util.ArrayList;
import java.util.List;

/**
 * A bar chart laid out for an inline SVG: the server computes every rectangle, so the page needs no script and loads
 * nothing. Labels are text for the template to escape.
 */
public record BarChart(String title, int width, int height, int plotTop, int plotBottom, long max,
        List<Bar> bars) {

    private static final int WIDTH = 720;
    private static final int HEIGHT = 200;
    private static final int TOP = 20;
    private static final int BOTTOM = 170;
    private static final int LEFT = 40;
    private static final int RIGHT = 10;

    /** {@code label} is drawn under the bar when not null; {@code title} is its tooltip. */
    public record Bar(int x, int y, int width, int height, long value, String label, String title, int labelX) {

        public int valueY() {
            return y - 4;
        }
    }

    public record Point(String label, long value, boolean labelled) {
    }

    public static BarChart of(String title, List<Point> points) {
        long max = Math.max(1, points.stream().mapToLong(Point::value).max().orElse(0));
        double slot = (double) (WIDTH - LEFT - RIGHT) / Math.max(1, points.size());
        int barWidth = Math.max(1, (int) Math.floor(slot * 0.8));
        List<Bar> bars = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            Point point = points.get(i);
            int barHeight = (int) Math.round((double) point.value() / max * (BOTTOM - TOP));
            int x = LEFT + (int) Math.round(i * slot + (slot - barWidth) / 2);
            bars.add(new Bar(x, BOTTOM - barHeight, barWidth, barHeight, point.value(),
                    point.labelled() ? point.label() : null, point.label() + ": " + point.value(),
                    x + barWidth / 2));
        }
        return new BarChart(title, WIDTH, HEIGHT, TOP, BOTTOM, max, bars);
    }

    public int left() {
        return LEFT;
    }

    public int right() {
        return WIDTH - RIGHT;
    }

    public int axisLabelX() {
        return LEFT - 6;
    }

    public int maxLabelY() {
        return TOP + 4;
    }

    public int zeroLabelY() {
        return BOTTOM + 4;
    }

    public int labelY() {
        return BOTTOM + 16;
    }

    /** Few bars have room for their values above them. */
    public boolean showValues() {
        return bars.size() <= 12;
    }
}
