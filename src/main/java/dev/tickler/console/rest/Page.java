package dev.tickler.console.rest;

/** What the layout needs: the title, the section to highlight, and the signed-in operator with the form token. */
public record Page(String title, String section, String operator, String formToken) {
}
