package io.sdmq.server;

import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

/** A browser on one server's dashboard: the few moves the tests make, each waiting for what htmx swaps in. */
final class Dashboard implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final WebDriver driver;
    private final String base;

    Dashboard(String base) {
        this.driver = Browsers.open();
        this.base = base;
    }

    Dashboard open(String path) {
        driver.get(base + path);
        return this;
    }

    /** Signs in on the sign-in page with {@code token}, and waits for the page it lands on: another, or a refusal. */
    Dashboard signIn(String token) {
        open("/ui/login");
        driver.findElement(By.id("token")).sendKeys(token);
        driver.findElement(By.id("sign-in")).click();
        new WebDriverWait(driver, WAIT).until(d -> !path().equals("/ui/login") || has(".result.error"));
        return this;
    }

    /** Waits until the browser is at {@code expected}; answers it. */
    String waitForPath(String expected) {
        return new WebDriverWait(driver, WAIT).until(d -> path().equals(expected) ? expected : null);
    }

    String path() {
        return driver.getCurrentUrl().substring(base.length());
    }

    String source() {
        return driver.getPageSource();
    }

    /** The text of the element {@code css} finds, once there is one. */
    String text(String css) {
        return new WebDriverWait(driver, WAIT).ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElement(By.cssSelector(css)).getText().strip());
    }

    /** Waits until the element {@code css} finds holds {@code expected} in its text. */
    String waitForText(String css, String expected) {
        return new WebDriverWait(driver, WAIT).ignoring(StaleElementReferenceException.class)
                .until(d -> {
                    List<WebElement> found = d.findElements(By.cssSelector(css));
                    String text = found.isEmpty() ? "" : found.get(0).getText();
                    return text.contains(expected) ? text.strip() : null;
                });
    }

    /** An attribute of the element {@code css} finds, once it has a value. */
    String attribute(String css, String name) {
        return new WebDriverWait(driver, WAIT).ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElement(By.cssSelector(css)).getDomAttribute(name));
    }

    boolean has(String css) {
        return !driver.findElements(By.cssSelector(css)).isEmpty();
    }

    Dashboard click(String css) {
        new WebDriverWait(driver, WAIT).ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElement(By.cssSelector(css))).click();
        return this;
    }

    Dashboard type(String css, String text) {
        WebElement field = driver.findElement(By.cssSelector(css));
        field.clear();
        field.sendKeys(text);
        return this;
    }

    /** The value the browser holds for the sign-in cookie (HttpOnly: no script of the page can read it). */
    String cookie() {
        Cookie cookie = driver.manage().getCookieNamed("sdmq_ui");
        return cookie == null ? null : cookie.getValue();
    }

    /** The CSRF token the page renders for htmx, from its body's {@code hx-headers}. */
    String csrf() {
        String headers = driver.findElement(By.tagName("body")).getDomAttribute("hx-headers");
        return headers.replaceAll("^.*\"X-CSRF-Token\":\\s*\"([^\"]+)\".*$", "$1");
    }

    /**
     * Saves a screenshot of the page to {@code target/screenshots/<name>.png}, in Chromium only; to
     * {@code <dir>/<name>.png} with {@code -Dsdmq.test.screenshots=<dir>} (the README's pictures are refreshed with
     * {@code -Dsdmq.test.screenshots=../docs/screenshots}).
     */
    void screenshot(String name) {
        if (!Browsers.chromium()) {
            return;
        }
        Path file = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath();
        try {
            Path target = Path.of(System.getProperty("sdmq.test.screenshots", "target/screenshots"), name + ".png");
            Files.createDirectories(target.getParent());
            Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
