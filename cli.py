"""The `factoryfun` command (placeholder until the commands land)."""
import click


@click.group()
def main() -> None:
    """factoryfun: optimal factories for Factory Fun."""
