"""The pages: the app's one HTML page (the lobby, and a room's invite link),
its icon and static files."""

from __future__ import annotations

from pathlib import Path

from fastapi.responses import FileResponse, HTMLResponse, Response

from unokit.web.routes.common import api_router

__all__ = ["STATIC_DIR", "router"]

STATIC_DIR = Path(__file__).parent.parent / "static"

router = api_router()


def page() -> Response:
    html = STATIC_DIR / "app.html"
    if html.is_file():
        return FileResponse(html, media_type="text/html", headers={"Cache-Control": "no-cache"})
    return HTMLResponse("<!doctype html><title>unokit</title><p>unokit server: no UI found.")


@router.get("/", include_in_schema=False)
async def index() -> Response:
    return page()


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> Response:
    return FileResponse(
        STATIC_DIR / "favicon.svg",
        media_type="image/svg+xml",
        headers={"Cache-Control": "max-age=86400"},
    )


@router.get("/r/{code}", include_in_schema=False)
async def invite(code: str) -> Response:
    return page()
