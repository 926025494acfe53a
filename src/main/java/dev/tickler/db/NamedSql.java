package dev.tickler.db;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.vertx.mutiny.sqlclient.Tuple;

/**
 * SQL written with named parameters ({@code :name}), turned once into the {@code $n} placeholders Postgres takes, and
 * bound by name: a statement reads as what it does, and adding a parameter never renumbers the others. A name may appear
 * many times; casts ({@code ::text}) and quoted literals are left alone.
 */
public final class NamedSql {

    private static final Pattern NAME_OR_LITERAL = Pattern.compile("'(?:[^']|'')*'|(?<![:\\w]):([a-z_][a-z0-9_]*)");

    private final String sql;
    private final List<String> names;

    private NamedSql(String sql, List<String> names) {
        this.sql = sql;
        this.names = names;
    }

    public static NamedSql of(String withNames) {
        List<String> names = new ArrayList<>();
        Matcher matcher = NAME_OR_LITERAL.matcher(withNames);
        StringBuilder sql = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1);
            if (name == null) {
                matcher.appendReplacement(sql, Matcher.quoteReplacement(matcher.group()));
                continue;
            }
            int position = names.indexOf(name);
            if (position < 0) {
                names.add(name);
                position = names.size() - 1;
            }
            matcher.appendReplacement(sql, "\\$" + (position + 1));
        }
        matcher.appendTail(sql);
        return new NamedSql(sql.toString(), List.copyOf(names));
    }

    /** The statement as Postgres takes it. */
    public String sql() {
        return sql;
    }

    /**
     * The parameters from name, value pairs; every name of the statement must be given once, and no other.
     *
     * @throws IllegalArgumentException when a name is missing, unknown or given twice
     */
    public Tuple bind(Object... namesAndValues) {
        if (namesAndValues.length != names.size() * 2) {
            throw new IllegalArgumentException("the statement takes " + names + ", given "
                    + Arrays.toString(namesAndValues));
        }
        Object[] values = new Object[names.size()];
        boolean[] given = new boolean[names.size()];
        for (int i = 0; i < namesAndValues.length; i += 2) {
            int position = names.indexOf((String) namesAndValues[i]);
            if (position < 0 || given[position]) {
                throw new IllegalArgumentException("the statement takes " + names + ", not " + namesAndValues[i]
                        + (position >= 0 ? " twice" : ""));
            }
            given[position] = true;
            values[position] = namesAndValues[i + 1];
        }
        Tuple tuple = Tuple.tuple();
        for (Object value : values) {
            tuple.addValue(value);
        }
        return tuple;
    }

    /** Where a name's value sits in the bound parameters (from 0). */
    public int position(String name) {
        int position = names.indexOf(name);
        if (position < 0) {
            throw new IllegalArgumentException("the statement takes " + names + ", not " + name);
        }
        return position;
    }

    @Override
    public String toString() {
        return sql;
    }
}
