from cbam.cli import run

run()
